"""The workloads a tune request names (docs/api.md "Workloads"), as dicts for KtuneClient.tune."""

from __future__ import annotations


def upload(upload_id: str) -> dict:
    """A matrix uploaded with KtuneClient.upload (its answer's "id")."""
    return {"upload": upload_id}


def path(relative_path: str) -> dict:
    """A Matrix Market or edge-list file inside the daemon's data dir."""
    return {"path": relative_path}


def stencil2d(n: int) -> dict:
    """The 5-point Laplacian of an n x n grid."""
    return {"generator": "stencil2d", "n": n}


def stencil3d(n: int) -> dict:
    """The 7-point Laplacian of an n x n x n grid."""
    return {"generator": "stencil3d", "n": n}


def rmat(scale: int, edge_factor: int = 16, seed: int = 1) -> dict:
    """An R-MAT power-law graph of 2**scale vertices and edge_factor edges per vertex."""
    return {"generator": "rmat", "scale": scale, "edge_factor": edge_factor, "seed": seed}


def uniform(rows: int, cols: int | None = None, per_row: int = 8, seed: int = 1) -> dict:
    """per_row random distinct columns in every row (square unless cols is given)."""
    return {"generator": "uniform", "rows": rows, "cols": cols or rows, "per_row": per_row,
            "seed": seed}


def banded(n: int, bandwidth: int, seed: int = 1) -> dict:
    """Every entry within `bandwidth` of the diagonal of an n x n matrix."""
    return {"generator": "banded", "n": n, "bandwidth": bandwidth, "seed": seed}


def block_expand(of: dict, block: int, seed: int = 1) -> dict:
    """Another generated matrix with each entry expanded into a dense block x block block."""
    return {"generator": "block_expand", "block": block, "of": of, "seed": seed}
