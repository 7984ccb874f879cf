#include "model/ptx/ptx_opcode_decode.h"

#include <string>
#include <utility>
#include <vector>

#include "workload/input_error.h"

namespace ktune::ptx {

namespace {

template <typename E>
using Table = std::vector<std::pair<std::string_view, E>>;

template <typename E>
bool lookup(const Table<E>& table, std::string_view word, E& out) {
  for (const auto& [name, value] : table) {
    if (name == word) {
      out = value;
      return true;
    }
  }
  return false;
}

const Table<Opcode>& opcodes() {
  static const Table<Opcode> t = {
      {"add", Opcode::Add},     {"sub", Opcode::Sub},       {"mul", Opcode::Mul},
      {"mad", Opcode::Mad},     {"fma", Opcode::Fma},       {"div", Opcode::Div},
      {"rem", Opcode::Rem},     {"min", Opcode::Min},       {"max", Opcode::Max},
      {"abs", Opcode::Abs},     {"neg", Opcode::Neg},       {"rcp", Opcode::Rcp},
      {"sqrt", Opcode::Sqrt},   {"rsqrt", Opcode::Rsqrt},   {"ex2", Opcode::Ex2},
      {"lg2", Opcode::Lg2},     {"sin", Opcode::Sin},       {"cos", Opcode::Cos},
      {"and", Opcode::And},     {"or", Opcode::Or},         {"xor", Opcode::Xor},
      {"not", Opcode::Not},     {"shl", Opcode::Shl},       {"shr", Opcode::Shr},
      {"popc", Opcode::Popc},   {"clz", Opcode::Clz},       {"brev", Opcode::Brev},
      {"bfe", Opcode::Bfe},     {"bfi", Opcode::Bfi},       {"prmt", Opcode::Prmt},
      {"dp2a", Opcode::Dp2a},   {"dp4a", Opcode::Dp4a},
      {"setp", Opcode::Setp},   {"selp", Opcode::Selp},     {"mov", Opcode::Mov},
      {"cvt", Opcode::Cvt},     {"cvta", Opcode::Cvta},     {"ld", Opcode::Ld},
      {"st", Opcode::St},       {"shfl", Opcode::Shfl},     {"vote", Opcode::Vote},
      {"activemask", Opcode::Activemask},
      {"bar", Opcode::Bar},     {"barrier", Opcode::Bar},   {"membar", Opcode::Membar},
      {"fence", Opcode::Membar}, {"atom", Opcode::Atom},    {"red", Opcode::Red},
      {"mma", Opcode::Mma},     {"ldmatrix", Opcode::Ldmatrix}, {"cp", Opcode::CpAsync},
      {"bra", Opcode::Bra},     {"ret", Opcode::Ret},       {"exit", Opcode::Exit},
  };
  return t;
}

const Table<DataType>& types() {
  static const Table<DataType> t = {
      {"pred", DataType::Pred}, {"b8", DataType::B8},   {"b16", DataType::B16},
      {"b32", DataType::B32},   {"b64", DataType::B64}, {"u8", DataType::U8},
      {"u16", DataType::U16},   {"u32", DataType::U32}, {"u64", DataType::U64},
      {"s8", DataType::S8},     {"s16", DataType::S16}, {"s32", DataType::S32},
      {"s64", DataType::S64},   {"f16", DataType::F16}, {"f32", DataType::F32},
      {"f64", DataType::F64},
  };
  return t;
}

const Table<StateSpace>& spaces() {
  static const Table<StateSpace> t = {
      {"global", StateSpace::Global}, {"shared", StateSpace::Shared},
      {"shared::cta", StateSpace::Shared}, {"local", StateSpace::Local},
      {"param", StateSpace::Param},   {"const", StateSpace::Const},
  };
  return t;
}

const Table<Rounding>& roundings() {
  static const Table<Rounding> t = {
      {"rn", Rounding::Rn},   {"rz", Rounding::Rz},   {"rm", Rounding::Rm},   {"rp", Rounding::Rp},
      {"rni", Rounding::Rni}, {"rzi", Rounding::Rzi}, {"rmi", Rounding::Rmi}, {"rpi", Rounding::Rpi},
  };
  return t;
}

const Table<CmpOp>& comparisons() {
  static const Table<CmpOp> t = {
      {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},
      {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},
      {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
      {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu},
      {"num", CmpOp::Num}, {"nan", CmpOp::Nan},
  };
  return t;
}

const Table<AtomicOp>& atomic_ops() {
  static const Table<AtomicOp> t = {
      {"add", AtomicOp::Add}, {"min", AtomicOp::Min}, {"max", AtomicOp::Max},
      {"exch", AtomicOp::Exch}, {"cas", AtomicOp::Cas}, {"and", AtomicOp::And},
      {"or", AtomicOp::Or},   {"xor", AtomicOp::Xor}, {"inc", AtomicOp::Inc},
      {"dec", AtomicOp::Dec},
  };
  return t;
}

// Modifiers that change nothing the interpreter computes: synchronisation scopes, memory
// orderings, cache policies.
bool ignorable(std::string_view m) {
  static const std::string_view words[] = {
      "sync", "aligned", "full", "relaxed", "acquire", "release", "acq_rel", "sc", "weak",
      "volatile", "cta", "gpu", "sys", "gl", "ca", "cg", "cs", "lu", "cv", "wb", "wt",
      "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
      "L1::no_allocate", "L2::64B", "L2::128B", "L2::256B"};
  for (std::string_view w : words) {
    if (w == m) return true;
  }
  return false;
}

}  // namespace

Instruction decode_opcode(std::string_view word, uint32_t line) {
  Instruction ins;
  ins.line = line;
  const size_t dot = word.find('.');
  const std::string_view base = word.substr(0, dot);
  auto fail = [&](const std::string& why) -> InputError {
    return InputError("unsupported PTX instruction '" + std::string(word) + "' at line " +
                      std::to_string(line) + ": " + why);
  };
  if (!lookup(opcodes(), base, ins.op)) throw fail("unknown opcode '" + std::string(base) + "'");
  std::string_view rest = dot == std::string_view::npos ? std::string_view() : word.substr(dot + 1);
  int mma_types = 0;        // mma's d, a, b, c types seen
  bool async_seen = false;  // cp's ".async"
  while (!rest.empty()) {
    const size_t next = rest.find('.');
    const std::string_view m = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
    DataType type;
    StateSpace space;
    Rounding rounding;
    CmpOp cmp;
    AtomicOp atomic;
    if (ins.op == Opcode::Mma && (m == "m16n8k16" || m == "m16n8k8")) {
      ins.mma_k = m == "m16n8k16" ? 16 : 8;
    } else if (ins.op == Opcode::Mma && (m == "row" || m == "col" || m == "sync" || m == "aligned")) {
      // the layout every mma.sync of these shapes takes (checked below)
    } else if (ins.op == Opcode::Mma && m != "f32" && m != "f16" && m != "bf16" && m != "tf32" && m != "f64") {
      throw fail("this mma is not modelled (." + std::string(m) + ")");
    } else if (ins.op == Opcode::Mma) {
      // d, a, b, c: a and b alike, c as d (checked below)
      const DataType t = m == "f32"    ? DataType::F32
                         : m == "f16"  ? DataType::F16
                         : m == "bf16" ? DataType::BF16
                         : m == "tf32" ? DataType::TF32
                                       : DataType::F64;
      if (mma_types == 0) ins.type = t;
      else if (mma_types == 1) ins.type2 = t;
      else if ((mma_types == 2 && t != ins.type2) || (mma_types == 3 && t != ins.type) || mma_types > 3)
        throw fail("this mma is not modelled (mixed operand or accumulator types)");
      ++mma_types;
    } else if (ins.op == Opcode::Ldmatrix && (m == "m8n8" || m == "x1" || m == "x2" || m == "x4" || m == "trans")) {
      if (m == "trans") ins.trans = true;
      else if (m != "m8n8") ins.vector = static_cast<uint8_t>(m[1] - '0');
    } else if (ins.op == Opcode::CpAsync && !async_seen) {
      if (m != "async") throw fail("unknown opcode 'cp." + std::string(m) + "'");
      async_seen = true;
    } else if (ins.op == Opcode::CpAsync && (m == "commit_group" || m == "wait_group" || m == "wait_all")) {
      ins.op = Opcode::Membar;  // the interpreter's copies land at once: nothing to wait for
    } else if (ins.op == Opcode::CpAsync) {
      // always shared from global; the bulk and mbarrier forms (TMA) are other instructions
      if (m != "shared" && m != "global" && m != "ca" && m != "cg")
        throw fail("unknown opcode 'cp.async." + std::string(m) + "'");
    } else if (ins.op == Opcode::Setp && ins.cmp == CmpOp::None && lookup(comparisons(), m, cmp)) {
      ins.cmp = cmp;
    } else if (ins.op == Opcode::Setp && (m == "and" || m == "or" || m == "xor")) {
      ins.bool_op = m == "and" ? BoolOp::And : m == "or" ? BoolOp::Or : BoolOp::Xor;
    } else if ((ins.op == Opcode::Atom || ins.op == Opcode::Red) && lookup(atomic_ops(), m, atomic)) {
      ins.atomic = atomic;
    } else if (lookup(types(), m, type)) {
      if (ins.type == DataType::None) {
        ins.type = type;
      } else if (ins.type2 == DataType::None) {
        ins.type2 = type;
      } else {
        throw fail("more than two types");
      }
    } else if (lookup(spaces(), m, space)) {
      ins.space = space;
    } else if (lookup(roundings(), m, rounding)) {
      ins.rounding = rounding;
    } else if (m == "to" && ins.op == Opcode::Cvta) {
      ins.to_space = true;
    } else if (m == "nc" && ins.op == Opcode::Ld) {
      ins.non_coherent = true;
    } else if (m == "cs" && ins.op == Opcode::Ld) {
      ins.evict_first = true;
    } else if ((m == "v2" || m == "v4") && (ins.op == Opcode::Ld || ins.op == Opcode::St)) {
      ins.vector = m == "v2" ? 2 : 4;
    } else if ((m == "lo" || m == "hi") && ins.op == Opcode::Dp2a) {
      ins.mul = m == "lo" ? MulMode::Lo : MulMode::Hi;
    } else if ((m == "lo" || m == "hi" || m == "wide") && (ins.op == Opcode::Mul || ins.op == Opcode::Mad)) {
      ins.mul = m == "lo" ? MulMode::Lo : m == "hi" ? MulMode::Hi : MulMode::Wide;
    } else if (ins.op == Opcode::Shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
      ins.shfl = m == "up" ? ShflMode::Up : m == "down" ? ShflMode::Down
               : m == "bfly" ? ShflMode::Bfly : ShflMode::Idx;
    } else if (ins.op == Opcode::Vote && (m == "ballot" || m == "all" || m == "any" || m == "uni")) {
      ins.vote = m == "ballot" ? VoteMode::Ballot : m == "all" ? VoteMode::All
               : m == "any" ? VoteMode::Any : VoteMode::Uni;
    } else if (ins.op == Opcode::Bra && m == "uni") {
      ins.uniform = true;
    } else if (m == "ftz") {
      ins.ftz = true;
    } else if (m == "sat") {
      ins.sat = true;
    } else if (m == "approx") {
      ins.approx = true;
    } else if (ins.op == Opcode::Bar && (m == "arrive" || m == "red")) {
      throw fail("bar." + std::string(m) + " is not modelled");
    } else if (ins.op == Opcode::Bar && m == "warp") {
      ins.op = Opcode::Membar;  // bar.warp.sync: lanes of a converged warp, nothing to wait for
    } else if (!ignorable(m)) {
      throw fail("unknown modifier '." + std::string(m) + "'");
    }
  }
  // What the interpreter needs of each opcode's modifiers.
  if (ins.op == Opcode::Shfl && ins.shfl == ShflMode::None) throw fail("shfl without a mode");
  if (ins.op == Opcode::Vote && ins.vote == VoteMode::None) throw fail("vote without a mode");
  if ((ins.op == Opcode::Atom || ins.op == Opcode::Red) && ins.atomic == AtomicOp::None)
    throw fail("atomic without an operation");
  if (ins.op == Opcode::Setp && ins.cmp == CmpOp::None) throw fail("setp without a comparison");
  if (ins.op == Opcode::Dp2a && ins.mul == MulMode::None) throw fail("dp2a without .lo or .hi");
  if (ins.op == Opcode::Vote && ins.vote == VoteMode::Uni) throw fail("vote.uni is not modelled");
  if ((ins.op == Opcode::Atom || ins.op == Opcode::Red) &&
      (ins.atomic == AtomicOp::Inc || ins.atomic == AtomicOp::Dec)) {
    throw fail("atomic inc/dec are not modelled");
  }
  if ((ins.op == Opcode::Ld || ins.op == Opcode::St || ins.op == Opcode::Atom ||
       ins.op == Opcode::Red) && (ins.space == StateSpace::Local || ins.space == StateSpace::Const)) {
    throw fail("local and constant memory are not modelled");
  }
  if (ins.op == Opcode::CpAsync && !async_seen) throw fail("unknown opcode 'cp'");
  const bool half_inputs = ins.type == DataType::F32 && (ins.type2 == DataType::BF16 || ins.type2 == DataType::F16);
  const bool doubles = ins.type == DataType::F64 && ins.type2 == DataType::F64;
  const bool tf32 = ins.type == DataType::F32 && ins.type2 == DataType::TF32;
  if (ins.op == Opcode::Mma && (mma_types != 4 || word.find(".row.col") == std::string_view::npos ||
                                !((half_inputs && ins.mma_k == 16) || (doubles && ins.mma_k != 0) ||
                                  (tf32 && ins.mma_k == 8))))
    throw fail("this mma is not modelled (only row.col m16n8k16 of bf16 or f16 into f32, m16n8k8 of tf32 into f32, "
               "and m16n8k8 or m16n8k16 of f64)");
  if (ins.op == Opcode::Ldmatrix && (ins.type != DataType::B16 || ins.space != StateSpace::Shared))
    throw fail("ldmatrix needs .shared.b16");
  if (ins.op != Opcode::Mma && (ins.type == DataType::F16 || ins.type2 == DataType::F16 ||
                                ins.type == DataType::BF16 || ins.type2 == DataType::BF16))
    throw fail("f16 and bf16 are modelled in mma only");
  return ins;
}

}  // namespace ktune::ptx
