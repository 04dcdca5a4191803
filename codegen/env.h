#pragma once
// What a parameter of the program stands for during code generation. The
// environment is persistent (immutable, shared tails), because a view
// captures the environment of the point where it was created.

#include "codegen/access_path.h"
#include "core/ir/expr.h"

#include <memory>
#include <string>
#include <variant>

namespace liftcc::codegen {

enum class AddressSpace { Global, Local, Private };

class Env;

/// A data-layout expression, to be read lazily through its own environment,
/// at `prefix` (e.g. the element a map's lambda parameter denotes).
struct ViewBinding {
  Expr expr;
  std::shared_ptr<const Env> env;
  AccessPath prefix;
};

/// A buffer holding a whole value of `type` in row-major order.
struct MemoryBinding {
  std::string name;
  Type type;
  AddressSpace space;
};

/// A scalar C variable (e.g. a reduction accumulator).
struct ScalarBinding {
  std::string name;
};

/// An int known as an index expression (e.g. generate's index, an unrolled loop index).
struct IndexBinding {
  arith::Expr value;
};

/// The window of a stream through local memory (generator_slide_seq_local.cpp):
/// planes of a local ring of `slots`, window slot dz in ring slot
/// (first + dz) % slots. With a register queue (generator_register_queue.cpp),
/// each work-item also holds the window's column at in-plane offset `centre`
/// from each output position it owns in the private array `queue` (window
/// slot dz of position p in queue[p * window + dz]), and reads it there
/// instead of from the ring.
struct RingBinding {
  std::string ring;
  Type ringType; ///< [slots][plane]
  arith::Expr first;
  std::string queue; ///< empty: no register queue
  int64_t centre = 0;
  int64_t window = 0;          ///< planes in the window
  std::vector<int64_t> copies; ///< positions a work-item owns per plane dimension, outermost first
  int64_t lanes = 1;           ///< consecutive outputs along x per position (a vector's lanes)
};

using Binding = std::variant<ViewBinding, MemoryBinding, ScalarBinding, IndexBinding, RingBinding>;

class Env {
public:
  Env() = default;
  /// A new environment with `param` bound; this one is unchanged.
  Env bind(const Expr &param, Binding binding) const {
    Env out;
    out.head_ = std::make_shared<const Node>(Node{param.id(), std::move(binding), head_});
    return out;
  }
  const Binding *lookup(const Expr &param) const {
    for (const Node *n = head_.get(); n; n = n->next.get())
      if (n->key == param.id()) return &n->binding;
    return nullptr;
  }

private:
  struct Node {
    const void *key;
    Binding binding;
    std::shared_ptr<const Node> next;
  };
  std::shared_ptr<const Node> head_;
};

inline std::shared_ptr<const Env> share(Env env) { return std::make_shared<const Env>(std::move(env)); }

} // namespace liftcc::codegen
