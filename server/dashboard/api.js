// Reads ktuned's JSON API from the page. A daemon with a token answers 401 without it: the token
// comes from the address (/#token=...: a fragment never reaches the server or its logs) or from
// the page's form, and is kept in this tab's sessionStorage only.
const TOKEN_KEY = 'ktune-token';

export class AuthRequired extends Error {}

export function takeTokenFromAddress() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
  history.replaceState(null, '', location.pathname + location.search);  // out of the address bar
}

export function useToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export async function getJson(path) {
  const headers = { Accept: 'application/json' };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers, cache: 'no-store' });
  if (response.status === 401) throw new AuthRequired(token ? 'the token was refused' : 'a token is needed');
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${path}: ${body?.error ?? `HTTP ${response.status}`}`);
  return body;
}
