#include "codegen/kernel_ir_passes.h"

#include "codegen/generate.h"
#include "codegen/index_holes.h"
#include "core/cfun/reserved.h"

#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <type_traits>

namespace liftcc::codegen::kir {

namespace {

/// `statement` with `pass` applied to each statement list nested in it.
Stmt mapNested(const Stmt &statement, const std::function<Stmts(const Stmts &)> &pass) {
  if (const Block *b = statement.as<Block>()) return {Block{pass(b->body)}};
  // Built field by field: copying the node would copy its nested lists too.
  if (const For *f = statement.as<For>()) return {For{f->type, f->var, f->start, f->bound, f->step, pass(f->body)}};
  if (const If *i = statement.as<If>()) {
    std::optional<Stmts> otherwise;
    if (i->otherwise) otherwise = pass(*i->otherwise);
    return {If{i->condition, pass(i->then), std::move(otherwise)}};
  }
  return statement;
}

/// The statement lists nested in `statement` (a block's, a loop's, both branches').
std::vector<const Stmts *> nestedLists(const Stmt &statement) {
  if (const Block *b = statement.as<Block>()) return {&b->body};
  if (const For *f = statement.as<For>()) return {&f->body};
  if (const If *i = statement.as<If>()) {
    if (i->otherwise) return {&i->then, &*i->otherwise};
    return {&i->then};
  }
  return {};
}

bool isTrue(const std::string &condition) { return condition == "1" || condition == "true"; }
bool isFalse(const std::string &condition) { return condition == "0" || condition == "false"; }

/// Whether a statement of `statements` declares a name (a Raw one may: its text is not read).
bool declaresAnything(const Stmts &statements) {
  for (const Stmt &s : statements)
    if (s.declaredName() || s.as<Raw>()) return true;
  return false;
}

/// Calls `f` on each expression text of `statement` itself, not of the
/// statements nested in it (`S` is Stmt or const Stmt).
template <typename S, typename F> void ownTexts(S &statement, F &&f) {
  std::visit(
      [&](auto &node) {
        using N = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<N, Let>) {
          f(node.type);
          f(node.init);
        } else if constexpr (std::is_same_v<N, Assign>) {
          f(node.target);
          f(node.value);
          f(node.guard);
        } else if constexpr (std::is_same_v<N, VectorStore>) {
          f(node.buffer);
          f(node.offset);
          f(node.value);
        } else if constexpr (std::is_same_v<N, If>) {
          f(node.condition);
        } else if constexpr (std::is_same_v<N, For>) {
          f(node.type);
          f(node.start);
          f(node.bound);
          f(node.step);
        } else if constexpr (std::is_same_v<N, ArrayDecl>) {
          f(node.count);
        } else if constexpr (std::is_same_v<N, Raw>) {
          f(node.text);
        }
      },
      statement.node);
}

/// `statement` with `edit` applied to each expression text of its own.
Stmt mapOwnTexts(Stmt statement, const std::function<std::string(const std::string &)> &edit) {
  ownTexts(statement, [&](std::string &text) { text = edit(text); });
  return statement;
}

/// Calls `visit` on every expression text of `statements`, nested ones too.
void forEachText(const Stmts &statements, const std::function<void(const std::string &)> &visit) {
  for (const Stmt &s : statements) {
    ownTexts(s, visit);
    for (const Stmts *nested : nestedLists(s)) forEachText(*nested, visit);
  }
}

/// The holes of `statement`'s own texts, in order.
std::vector<IndexHole> ownHoles(const Stmt &statement) {
  std::vector<IndexHole> holes;
  ownTexts(statement,
           [&](const std::string &text) { forEachHole(text, [&](const IndexHole &hole) { holes.push_back(hole); }); });
  return holes;
}

/// Calls `visit(begin, end)` for each identifier of C text `text`, in order:
/// a run of letters, digits and '_' from a letter or '_' on.
void forEachIdentifier(const std::string &text, const std::function<void(size_t, size_t)> &visit) {
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      visit(i, end);
      i = end;
    } else {
      ++i;
    }
  }
}

std::set<std::string> identifiersIn(const std::string &text) {
  std::set<std::string> words;
  forEachIdentifier(text, [&](size_t begin, size_t end) { words.insert(text.substr(begin, end - begin)); });
  return words;
}

/// The variables some statement writes after declaring them: non-const
/// lets and assignments to a plain name (accumulators, a stream's
/// registers). A base that reads one is never named: its value could change
/// between the name's declaration and a later use.
void collectWritten(const Stmts &statements, std::set<std::string> &written) {
  for (const Stmt &s : statements) {
    if (const Let *l = s.as<Let>(); l && !l->constant) written.insert(l->name);
    if (const Assign *a = s.as<Assign>(); a && cfun::isIdentifier(a->target)) written.insert(a->target);
    for (const Stmts *nested : nestedLists(s)) collectWritten(*nested, written);
  }
}

class IndexNamer {
public:
  explicit IndexNamer(const Stmts &all) { collectWritten(all, written_); }

  /// `statements` with each base that two or more of their own accesses
  /// share declared once, before its first use, and every access to a
  /// named base (declared here or in an enclosing list) written through it.
  Stmts list(const Stmts &statements, std::set<std::string> visible) {
    std::vector<std::vector<IndexHole>> holes;
    std::map<std::string, int> uses;
    for (const Stmt &s : statements) {
      holes.push_back(ownHoles(s));
      for (const IndexHole &hole : holes.back())
        if (nameable(hole)) ++uses[hole.name];
    }
    Stmts out;
    for (size_t k = 0; k < statements.size(); ++k) {
      const Stmt &s = statements[k];
      for (const IndexHole &hole : holes[k])
        if (nameable(hole) && uses[hole.name] >= 2 && visible.insert(hole.name).second)
          out.push_back({Let{hole.type, hole.name, hole.base}});
      Stmt nested = mapNested(s, [&](const Stmts &body) { return list(body, visible); });
      out.push_back(mapOwnTexts(std::move(nested), [&](const std::string &text) {
        return replaceHoles(
            text, [&](const IndexHole &hole) { return visible.count(hole.name) ? namedIndex(hole) : holeText(hole); });
      }));
    }
    return out;
  }

private:
  bool nameable(const IndexHole &hole) const {
    for (const std::string &word : identifiersIn(hole.base))
      if (written_.count(word)) return false;
    return true;
  }

  std::set<std::string> written_;
};

/// `statements` with `edit` applied to every expression text, nested ones too.
Stmts mapAllTexts(const Stmts &statements, const std::function<std::string(const std::string &)> &edit) {
  Stmts out;
  for (const Stmt &s : statements)
    out.push_back(mapOwnTexts(mapNested(s, [&](const Stmts &body) { return mapAllTexts(body, edit); }), edit));
  return out;
}

} // namespace

Body chooseIndexWidth(const Body &body) {
  bool fits = true;
  forEachText(body.statements, [&](const std::string &text) { fits = fits && fitsNarrow(text); });
  IndexWidth width = fits ? IndexWidth::Narrow : IndexWidth::Wide;
  bool wide = width == IndexWidth::Wide;
  return {mapAllTexts(body.statements, [&](const std::string &text) { return spellWidth(text, wide); }), width};
}

std::string expressionTooLongMessage() {
  return "one output's expression exceeds " + std::to_string(kMaxExpressionBytes >> 10) +
         " KiB of C source (fused steps recompute their producer at every read); fuse fewer steps (a smaller time "
         "tile)";
}

Body capExpressionSize(const Body &body) {
  forEachText(body.statements, [](const std::string &text) {
    if (text.size() > kMaxExpressionBytes && spellHoles(text).size() > kMaxExpressionBytes)
      throw CodegenError("", expressionTooLongMessage());
  });
  return body;
}

Stmts nameCommonIndices(const Stmts &statements) { return IndexNamer(statements).list(statements, {}); }

Stmts renameCalls(const Stmts &statements, const std::map<std::string, std::string> &names) {
  return mapAllTexts(statements, [&](const std::string &text) {
    std::string out;
    size_t copied = 0;
    forEachIdentifier(text, [&](size_t begin, size_t end) {
      auto renamed = names.find(text.substr(begin, end - begin));
      if (renamed == names.end() || end == text.size() || text[end] != '(') return;
      out.append(text, copied, begin - copied);
      out += renamed->second;
      copied = end;
    });
    return out.append(text, copied, std::string::npos);
  });
}

Stmts foldConstantConditions(const Stmts &statements) {
  Stmts out;
  for (const Stmt &original : statements) {
    Stmt s = mapNested(original, foldConstantConditions);
    if (const If *i = s.as<If>()) {
      if (isTrue(i->condition)) {
        out.push_back({Block{i->then}});
        continue;
      }
      if (isFalse(i->condition)) {
        if (i->otherwise) out.push_back({Block{*i->otherwise}});
        continue;
      }
    }
    if (const Assign *a = s.as<Assign>(); a && isTrue(a->guard)) {
      out.push_back({Assign{a->target, a->value, ""}});
      continue;
    }
    if (const Assign *a = s.as<Assign>(); a && isFalse(a->guard)) continue;
    out.push_back(std::move(s));
  }
  return out;
}

Stmts flattenBlocks(const Stmts &statements) {
  Stmts out;
  std::set<std::string> declared; // by the statements of `out`, at this level
  for (size_t k = 0; k < statements.size(); ++k) {
    Stmt s = mapNested(statements[k], flattenBlocks);
    const Block *b = s.as<Block>();
    bool splice = false;
    if (b && !declaresAnything(b->body)) splice = true;
    if (b && k + 1 == statements.size()) {
      splice = true;
      for (const Stmt &inner : b->body)
        if (auto name = inner.declaredName(); (name && declared.count(*name)) || inner.as<Raw>()) splice = false;
    }
    if (!splice) {
      if (auto name = s.declaredName()) declared.insert(*name);
      out.push_back(std::move(s));
      continue;
    }
    for (const Stmt &inner : b->body) {
      if (auto name = inner.declaredName()) declared.insert(*name);
      out.push_back(inner);
    }
  }
  return out;
}

const std::vector<Pass> &passes() {
  static const std::vector<Pass> list{
      {"fold constant conditions",
       [](const Body &b) {
         return Body{foldConstantConditions(b.statements), b.width};
       }},
      {"flatten blocks",
       [](const Body &b) {
         return Body{flattenBlocks(b.statements), b.width};
       }},
      {"choose index width", chooseIndexWidth},
      {"name common indices",
       [](const Body &b) {
         return Body{nameCommonIndices(b.statements), b.width};
       }},
      {"cap expression size", capExpressionSize},
  };
  return list;
}

Body simplify(const Stmts &statements) {
  Body current{statements, IndexWidth::Narrow};
  for (const Pass &pass : passes()) current = pass.run(current);
  return current;
}

} // namespace liftcc::codegen::kir
