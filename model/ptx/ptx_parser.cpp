#include "model/ptx/ptx_parser.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

#include "model/ptx/ptx_lexer.h"
#include "model/ptx/ptx_opcode_decode.h"
#include "workload/input_error.h"

namespace ktune::ptx {

namespace {

const std::pair<std::string_view, Special> kSpecials[] = {
    {"%tid.x", Special::TidX},         {"%tid.y", Special::TidY},
    {"%tid.z", Special::TidZ},         {"%ntid.x", Special::NtidX},
    {"%ntid.y", Special::NtidY},       {"%ntid.z", Special::NtidZ},
    {"%ctaid.x", Special::CtaidX},     {"%ctaid.y", Special::CtaidY},
    {"%ctaid.z", Special::CtaidZ},     {"%nctaid.x", Special::NctaidX},
    {"%nctaid.y", Special::NctaidY},   {"%nctaid.z", Special::NctaidZ},
    {"%laneid", Special::Laneid},      {"%warpid", Special::Warpid},
    {"%nwarpid", Special::Nwarpid},    {"%lanemask_eq", Special::LanemaskEq},
    {"%lanemask_lt", Special::LanemaskLt}, {"%lanemask_le", Special::LanemaskLe},
    {"%lanemask_gt", Special::LanemaskGt}, {"%lanemask_ge", Special::LanemaskGe},
    {"%smid", Special::Smid},          {"%clock", Special::Clock},
    {"%clock64", Special::Clock64},
};

// Operations with no destination register; every other one writes its first operand.
bool has_destination(const Instruction& ins) {
  switch (ins.op) {
    case Opcode::St: case Opcode::Red: case Opcode::Bar: case Opcode::Membar: case Opcode::CpAsync:
    case Opcode::Bra: case Opcode::Ret: case Opcode::Exit:
      return false;
    default:
      return true;
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : tokens_(tokenize_ptx(text)) {}

  PtxModule module() {
    PtxModule m;
    while (!at_end()) {
      const Token t = next();
      if (t.text == ".version") {
        m.version = std::string(next().text);
      } else if (t.text == ".target") {
        m.target = std::string(next().text);
        while (peek().text == ",") {
          next();
          next();
        }
      } else if (t.text == ".address_size") {
        if (next().text != "64") throw error(t, "only .address_size 64 is supported");
      } else if (t.text == ".visible" || t.text == ".weak") {
        continue;  // linkage of the declaration that follows
      } else if (t.text == ".extern") {
        // Only an extern .shared array may be unsized: the dynamic shared memory of every kernel.
        if (next().text != ".shared") throw error(t, "module-level .extern is supported for .shared arrays only");
        module_shared_.push_back(shared_declaration(true));
      } else if (t.text == ".entry") {
        m.functions.push_back(function(true));
      } else if (t.text == ".func") {
        throw error(t, "device functions (.func) are not supported; inline them");
      } else if (t.text == ".shared") {
        module_shared_.push_back(shared_declaration(false));
      } else if (t.text == ".global" || t.text == ".const") {
        // Declared, not modelled: CUDA 13's headers declare an unused .global helper wherever a
        // kernel calls atomicExch or atomicCAS. A kernel that reads or writes one is refused at
        // the use (unmodelled_variable).
        unmodelled_variable_declaration(t);
      } else {
        throw error(t, "unexpected '" + std::string(t.text) + "' at module level");
      }
    }
    return m;
  }

 private:
  // --- tokens --------------------------------------------------------------------------
  bool at_end() const { return tokens_[pos_].kind == TokenKind::End; }
  const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  Token next() {
    const Token& t = tokens_[pos_];
    if (t.kind == TokenKind::End) throw InputError("PTX ends unexpectedly at line " + std::to_string(t.line));
    ++pos_;
    return t;
  }
  void expect(std::string_view text) {
    const Token t = next();
    if (t.text != text) {
      throw error(t, "expected '" + std::string(text) + "', found '" + std::string(t.text) + "'");
    }
  }
  InputError error(const Token& t, const std::string& what) const {
    return InputError("PTX line " + std::to_string(t.line) + ": " + what);
  }
  uint64_t number(const Token& t) {
    if (t.kind != TokenKind::Number) throw error(t, "expected a number, found '" + std::string(t.text) + "'");
    return std::strtoull(std::string(t.text).c_str(), nullptr, 0);
  }

  // --- declarations ----------------------------------------------------------------------
  static DataType type_of(std::string_view word) {
    static const std::pair<std::string_view, DataType> names[] = {
        {".pred", DataType::Pred}, {".b8", DataType::B8},   {".b16", DataType::B16},
        {".b32", DataType::B32},   {".b64", DataType::B64}, {".u8", DataType::U8},
        {".u16", DataType::U16},   {".u32", DataType::U32}, {".u64", DataType::U64},
        {".s8", DataType::S8},     {".s16", DataType::S16}, {".s32", DataType::S32},
        {".s64", DataType::S64},   {".f16", DataType::F16}, {".f32", DataType::F32},
        {".f64", DataType::F64}};
    for (const auto& [name, type] : names) {
      if (name == word) return type;
    }
    return DataType::None;
  }

  // [.align N] .type name [ '[' size? ']' ] ;   (after ".shared")
  SharedVariable shared_declaration(bool dynamic_allowed) {
    SharedVariable v;
    uint32_t element = 1;
    for (;;) {
      const Token t = next();
      if (t.text == ".align") {
        v.align = static_cast<uint32_t>(number(next()));
      } else if (type_of(t.text) != DataType::None) {
        element = static_cast<uint32_t>(type_bits(type_of(t.text)) / 8);
      } else if (t.kind == TokenKind::Word && t.text[0] != '.') {
        v.name = std::string(t.text);
        break;
      } else {
        throw error(t, "unexpected '" + std::string(t.text) + "' in a .shared declaration");
      }
    }
    v.size = element;
    if (peek().text == "[") {
      next();
      if (peek().text == "]") {
        if (!dynamic_allowed) throw error(peek(), "unsized .shared array outside a kernel");
        v.dynamic = true;
        v.size = 0;
      } else {
        v.size = element * static_cast<uint32_t>(number(next()));
      }
      expect("]");
    }
    if (peek().text == "=") throw error(peek(), "initialised .shared variables are not supported");
    expect(";");
    v.align = std::max(v.align, element);
    return v;
  }

  void declare_register(PtxFunction& f, const std::string& name, DataType type, const Token& at) {
    if (f.registers.size() >= kNoReg) throw error(at, "too many registers");
    if (!registers_.emplace(name, static_cast<uint16_t>(f.registers.size())).second) {
      throw error(at, "register " + name + " declared twice");
    }
    f.registers.push_back({name, type});
  }

  // .reg .type %r<N>;  or  .reg .type %a, %b;
  void register_declaration(PtxFunction& f) {
    const Token type_token = next();
    const DataType type = type_of(type_token.text);
    if (type == DataType::None) throw error(type_token, "unknown register type '" + std::string(type_token.text) + "'");
    for (;;) {
      const Token name = next();
      if (name.kind != TokenKind::Word) throw error(name, "expected a register name");
      if (peek().text == "<") {
        next();
        const uint64_t count = number(next());
        expect(">");
        for (uint64_t i = 0; i < count; ++i) {
          declare_register(f, std::string(name.text) + std::to_string(i), type, name);
        }
      } else {
        declare_register(f, std::string(name.text), type, name);
      }
      if (peek().text != ",") break;
      next();
    }
    expect(";");
  }

  void parameters(PtxFunction& f) {
    expect("(");
    while (peek().text != ")") {
      expect(".param");
      Param p;
      uint32_t align = 0;
      uint32_t element = 0;
      for (;;) {
        const Token t = next();
        if (t.text == ".align") {
          align = static_cast<uint32_t>(number(next()));
        } else if (type_of(t.text) != DataType::None) {
          p.type = type_of(t.text);
          element = static_cast<uint32_t>(std::max(type_bits(p.type), 8) / 8);
        } else if (t.text == ".ptr" || t.text == ".global" || t.text == ".shared" ||
                   t.text == ".const" || t.text == ".local") {
          continue;  // pointer attributes of a kernel parameter
        } else if (t.kind == TokenKind::Word && t.text[0] != '.') {
          p.name = std::string(t.text);
          break;
        } else {
          throw error(t, "unexpected '" + std::string(t.text) + "' in a parameter");
        }
      }
      if (element == 0) throw error(peek(), "parameter " + p.name + " has no type");
      p.size = element;
      if (peek().text == "[") {
        next();
        p.size = element * static_cast<uint32_t>(number(next()));
        expect("]");
      }
      align = std::max(align, element);
      f.param_bytes = (f.param_bytes + align - 1) / align * align;
      p.offset = f.param_bytes;
      f.param_bytes += p.size;
      f.params.push_back(std::move(p));
      if (peek().text == ",") next();
    }
    expect(")");
  }

  // --- operands --------------------------------------------------------------------------
  uint16_t register_id(const Token& t) {
    auto it = registers_.find(std::string(t.text));
    if (it == registers_.end()) throw error(t, "undeclared register " + std::string(t.text));
    return it->second;
  }

  Operand immediate(bool negative) {
    const Token t = next();
    if (t.kind != TokenKind::Number) throw error(t, "expected an operand, found '" + std::string(t.text) + "'");
    const std::string text(t.text);
    Operand o;
    o.kind = OperandKind::Imm;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D')) {
      o.imm_kind = (text[1] == 'f' || text[1] == 'F') ? ImmKind::F32Bits : ImmKind::F64Bits;
      o.value = static_cast<int64_t>(std::strtoull(text.c_str() + 2, nullptr, 16));
      if (negative) o.value ^= o.imm_kind == ImmKind::F32Bits ? int64_t{1} << 31 : INT64_MIN;
    } else if (text.find_first_of(".eE") != std::string::npos && text.rfind("0x", 0) != 0 &&
               text.rfind("0X", 0) != 0) {
      double d = std::strtod(text.c_str(), nullptr);
      if (negative) d = -d;
      o.imm_kind = ImmKind::F64Bits;
      std::memcpy(&o.value, &d, sizeof d);
    } else {
      uint64_t u = std::strtoull(text.c_str(), nullptr, 0);
      o.value = negative ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
    }
    return o;
  }

  // [%rd1+8], [%rd1+-8], [param], [symbol+4], [1024]
  Operand address(PtxFunction& f) {
    expect("[");
    Operand o;
    o.kind = OperandKind::Address;
    const Token base = peek();
    if (base.kind == TokenKind::Word) {
      next();
      const std::string name(base.text);
      if (registers_.count(name)) {
        o.reg = registers_.at(name);
      } else if (const Param* p = f.find_param(name)) {
        o.kind = OperandKind::Param;
        o.reg = static_cast<uint16_t>(p - f.params.data());
      } else if (const SharedVariable* v = find_shared(f, name)) {
        o.value = v->offset;
      } else {
        unmodelled_variable(base, name);
        throw error(base, "unknown address base '" + name + "'");
      }
      if (peek().text == "+" || peek().text == "-") {
        bool negative = next().text == "-";
        if (peek().text == "-") {
          next();
          negative = !negative;
        }
        const Operand offset = immediate(negative);
        o.value += offset.value;
      }
    } else {
      o.value = immediate(false).value;
    }
    expect("]");
    return o;
  }

  const SharedVariable* find_shared(const PtxFunction& f, const std::string& name) const {
    for (const SharedVariable& v : f.shared) {
      if (v.name == name) return &v;
    }
    return nullptr;
  }

  Operand operand(PtxFunction& f, Instruction& ins) {
    const Token t = peek();
    if (t.text == "[") return address(f);
    if (t.text == "{") {
      next();
      Operand o;
      o.kind = OperandKind::Vector;
      o.reg = static_cast<uint16_t>(f.vector_regs.size());
      for (;;) {
        const Token r = next();
        f.vector_regs.push_back(r.text == "_" ? kNoReg : register_id(r));
        ++o.count;
        if (peek().text != ",") break;
        next();
      }
      expect("}");
      return o;
    }
    if (t.text == "!") {
      next();
      Operand o;
      o.kind = OperandKind::Reg;
      o.reg = register_id(next());
      o.negated = true;
      return o;
    }
    if (t.text == "-") {
      next();
      return immediate(true);
    }
    if (t.kind == TokenKind::Number) return immediate(false);
    if (t.kind != TokenKind::Word) throw error(t, "unexpected '" + std::string(t.text) + "' in operands");
    next();
    const std::string name(t.text);
    Operand o;
    if (registers_.count(name)) {
      o.kind = OperandKind::Reg;
      o.reg = registers_.at(name);
      return o;
    }
    for (const auto& [special_name, special] : kSpecials) {
      if (special_name == name) {
        o.kind = OperandKind::Special;
        o.special = special;
        return o;
      }
    }
    if (const SharedVariable* v = find_shared(f, name)) {  // a symbol's address (mov r, sym)
      o.kind = OperandKind::Imm;
      o.value = v->offset;
      return o;
    }
    if (ins.op == Opcode::Bra) {
      o.kind = OperandKind::Label;
      label_fixups_.push_back({static_cast<uint32_t>(f.code.size()), name, t});
      return o;
    }
    unmodelled_variable(t, name);
    throw error(t, "unknown operand '" + name + "' in " + opcode_name(ins.op));
  }

  // A module-level .global or .const variable: its name is remembered, the rest (an
  // initializer included) skipped to the ';'.
  void unmodelled_variable_declaration(const Token& space) {
    std::string name;
    for (Token t = next(); t.text != ";"; t = next())
      if (t.kind == TokenKind::Word && t.text.front() != '.' && name.empty()) name = std::string(t.text);
    if (name.empty()) throw error(space, "module-level " + std::string(space.text) + " declaration without a name");
    unmodelled_variables_[name] = std::string(space.text);
  }
  void unmodelled_variable(const Token& t, const std::string& name) const {
    const auto it = unmodelled_variables_.find(name);
    if (it != unmodelled_variables_.end())
      throw error(t, "module-level " + it->second + " variables are not supported ('" + name + "')");
  }

  static void add_register(uint16_t reg, uint8_t& count, uint16_t* list, int capacity,
                           const Instruction& ins) {
    if (reg == kNoReg) return;
    for (int i = 0; i < count; ++i) {
      if (list[i] == reg) return;
    }
    if (count >= capacity) {
      throw InputError("PTX line " + std::to_string(ins.line) + ": too many register operands in " +
                       opcode_name(ins.op));
    }
    list[count++] = reg;
  }

  // Static def-use of one instruction: destinations' registers are written (a store's
  // address and value, and every source, are read).
  void def_use(const PtxFunction& f, Instruction& ins) const {
    add_register(ins.guard, ins.read_count, ins.reads.data(), kMaxReads, ins);
    for (int i = 0; i < ins.operand_count; ++i) {
      const Operand& o = ins.operands[i];
      const bool written = i < ins.dst_count;
      uint8_t& count = written ? ins.write_count : ins.read_count;
      uint16_t* list = written ? ins.writes.data() : ins.reads.data();
      const int capacity = written ? kMaxWrites : kMaxReads;
      if (o.kind == OperandKind::Reg || o.kind == OperandKind::Address) {
        add_register(o.reg, count, list, capacity, ins);
      } else if (o.kind == OperandKind::Vector) {
        for (int e = 0; e < o.count; ++e) add_register(f.vector_regs[o.reg + e], count, list, capacity, ins);
      }
    }
  }

  void instruction(PtxFunction& f, uint16_t guard, bool guard_negated) {
    const Token op = next();
    if (op.kind != TokenKind::Word) throw error(op, "expected an instruction, found '" + std::string(op.text) + "'");
    Instruction ins = decode_opcode(op.text, op.line);
    ins.guard = guard;
    ins.guard_negated = guard_negated;
    bool pipe = false;
    while (peek().text != ";") {
      if (ins.operand_count == kMaxOperands) throw error(op, "too many operands in " + std::string(op.text));
      ins.operands[ins.operand_count++] = operand(f, ins);
      if (peek().text == "|") {  // d|p: a second destination
        next();
        pipe = true;
        continue;
      }
      if (peek().text == ",") next();
    }
    expect(";");
    ins.dst_count = has_destination(ins) && ins.operand_count > 0 ? (pipe ? 2 : 1) : 0;
    if (ins.op == Opcode::Bra && (ins.operand_count != 1 || ins.operands[0].kind != OperandKind::Label)) {
      throw error(op, "bra needs one label (indirect branches are not supported)");
    }
    if ((ins.op == Opcode::Ret || ins.op == Opcode::Exit) && ins.operand_count != 0) {
      throw error(op, std::string(op.text) + " takes no operands");
    }
    def_use(f, ins);
    f.code.push_back(ins);
  }

  void body(PtxFunction& f) {
    expect("{");
    int depth = 1;
    while (depth > 0) {
      const Token t = peek();
      if (t.text == "{") {
        next();
        ++depth;
      } else if (t.text == "}") {
        next();
        --depth;
      } else if (t.text == ".reg") {
        next();
        register_declaration(f);
      } else if (t.text == ".shared" || (t.text == ".extern" && peek(1).text == ".shared")) {
        if (next().text == ".extern") next();
        SharedVariable v = shared_declaration(true);
        place_shared(f, std::move(v));
      } else if (t.text == ".pragma" || t.text == ".loc" || t.text == ".file") {
        while (next().text != ";") {
        }
      } else if (t.kind == TokenKind::Word && t.text[0] == '.') {
        throw error(t, "unsupported directive " + std::string(t.text) + " in " + f.name);
      } else if (t.kind == TokenKind::Word && peek(1).text == ":") {
        freeze_layout(f);
        next();
        next();
        if (!labels_.emplace(std::string(t.text), static_cast<uint32_t>(f.code.size())).second) {
          throw error(t, "label " + std::string(t.text) + " defined twice");
        }
      } else if (t.text == "@") {
        freeze_layout(f);
        next();
        bool negated = false;
        if (peek().text == "!") {
          next();
          negated = true;
        }
        const uint16_t guard = register_id(next());
        instruction(f, guard, negated);
      } else {
        freeze_layout(f);
        instruction(f, kNoReg, false);
      }
    }
  }

  void place_shared(PtxFunction& f, SharedVariable v) {
    if (layout_frozen_) {
      throw InputError(".shared variable " + v.name + " declared after the first instruction");
    }
    if (v.dynamic) {
      dynamic_shared_.push_back(std::move(v));
      return;
    }
    v.offset = (f.static_shared_bytes + v.align - 1) / v.align * v.align;
    f.static_shared_bytes = v.offset + v.size;
    f.shared.push_back(std::move(v));
  }

  // Extern (dynamic) shared arrays all start where the static ones end; the layout is fixed
  // before the first instruction, which may take a symbol's address.
  void freeze_layout(PtxFunction& f) {
    if (layout_frozen_) return;
    layout_frozen_ = true;
    for (SharedVariable& v : dynamic_shared_) {
      v.offset = (f.static_shared_bytes + v.align - 1) / v.align * v.align;
      f.shared.push_back(v);
    }
  }

  PtxFunction function(bool is_entry) {
    PtxFunction f;
    f.is_entry = is_entry;
    const Token name = next();
    f.name = std::string(name.text);
    registers_.clear();
    labels_.clear();
    label_fixups_.clear();
    dynamic_shared_.clear();
    layout_frozen_ = false;
    for (const SharedVariable& v : module_shared_) place_shared(f, v);
    if (peek().text == "(") parameters(f);
    while (peek().text != "{") {  // performance directives: .maxntid 256, 1, 1 and the like
      const Token t = next();
      if (t.text == ";") throw error(t, "declarations without a body are not supported");
    }
    body(f);
    freeze_layout(f);
    for (const LabelFixup& fix : label_fixups_) {
      auto it = labels_.find(fix.label);
      if (it == labels_.end()) throw error(fix.at, "undefined label " + fix.label);
      if (it->second >= f.code.size()) throw error(fix.at, "label " + fix.label + " has no instruction after it");
      f.code[fix.pc].operands[0].value = it->second;
    }
    f.cfg = build_cfg(f.code);
    return f;
  }

  struct LabelFixup {
    uint32_t pc;
    std::string label;
    Token at;
  };

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::unordered_map<std::string, uint16_t> registers_;
  std::unordered_map<std::string, uint32_t> labels_;
  std::vector<LabelFixup> label_fixups_;
  std::vector<SharedVariable> module_shared_;
  std::unordered_map<std::string, std::string> unmodelled_variables_;  // name -> its state space
  std::vector<SharedVariable> dynamic_shared_;
  bool layout_frozen_ = false;
};

}  // namespace

PtxModule parse_ptx(std::string_view text) { return Parser(text).module(); }

}  // namespace ktune::ptx
