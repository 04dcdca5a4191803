#pragma once
// A strategy: how a high-level program is lowered (recipe and its options),
// generated (boundary specialisation, fast math) and launched (work-group
// size). One point of the exploration space (explore/space.h), and the input
// of the compilation pipeline (driver/pipeline.h).

#include "codegen/fast_math.h"
#include "codegen/generate.h"
#include "rewrite/recipes.h"

#include "core/io/json.h"
#include <cstdint>

#include <array>
#include <string>
#include <vector>

namespace liftcc::driver {

struct Configuration {
  /// plain, tiled, local or stream (2.5D streaming of the outermost dimension).
  rewrite::Recipe recipe = rewrite::Recipe::Plain;
  int64_t tile = 0;                      ///< outputs per tile and dimension (tiled, local)
  std::array<int64_t, 3> local{0, 0, 0}; ///< work-group size; 0 everywhere: the kernel's default
  /// coarsened: outputs per work-item along x, y, z, and whether the window
  /// is copied to private memory. Only coarsened configurations show them in
  /// key() and toJson(), so the records of the other recipes are unchanged.
  std::array<int64_t, 3> coarsen{1, 1, 1};
  bool privateWindow = true;
  /// codegen::CodegenOptions::specialiseBoundaries (key suffix " spec"; absent
  /// from key and JSON when off, so results stored before it stay valid).
  bool specialise = false;
  /// codegen::CodegenOptions::noinlineBorder (key suffix " noinline-border",
  /// absent when off); only with `specialise`.
  bool noinlineBorder = false;
  /// codegen::CodegenOptions::splitBorder (key suffix " split-border", absent
  /// when off); only with `specialise`.
  bool splitBorder = false;
  /// Build options (codegen/fast_math.h) and division by constants as
  /// multiplication. The defaults leave key() and toJson() as they were
  /// before these existed, so stored results stay valid.
  codegen::FastMath fastMath = codegen::FastMath::None;
  bool divToMul = false;
  /// plain, coarsened: vector lanes along x (rewrite::RecipeOptions::
  /// vectorWidth); 0, the default, is absent from key and JSON.
  int64_t vectorWidth = 0;
  /// The mapping of the outermost map nest onto the NDRange (order,
  /// sequential dimensions; rewrite/mapping.h). The default leaves key() and
  /// toJson() as they were before mappings existed (key suffix " map=y,x").
  rewrite::Mapping mapping = {};
  /// tiled, local: outputs per tile along x, y, z where they differ per
  /// dimension (rewrite::RecipeOptions::tileExtents); key "tile=32x4x1" and
  /// JSON "tileShape" only when set, so other records are unchanged. Last, so
  /// that aggregate initialisers {recipe, tile, local} keep their meaning.
  std::array<int64_t, 3> tileShape{0, 0, 0};
  /// Multi-kernel programs: fusible intermediates recomputed by the kernels
  /// reading them instead of kernels of their own (rewrite::Fusion::Inline);
  /// key suffix " fused" and JSON "fuse" only when set.
  bool fuse = false;
  /// Programs iterate(n, f, A): steps per kernel (rewrite::RecipeOptions::
  /// timeTile); key suffix " time=T" and JSON "timeTile" only above 1.
  int64_t timeTile = 1;
  /// streamLocal: output planes per work-group along the streamed dimension
  /// (rewrite::RecipeOptions::streamChunk; its plane tile is tile or
  /// tileShape); key " chunk=C" and JSON "streamChunk" only above 0.
  int64_t streamChunk = 0;

  /// The recipe's options for this configuration.
  rewrite::RecipeOptions recipeOptions() const;
  /// Stable identifier, e.g. "local tile=8 wg=8x8x1" or "coarsened k=8x1x1 wg=32x4x1"
  /// (the result store key).
  std::string key() const;
  nlohmann::json toJson() const;
  static Configuration fromJson(const nlohmann::json &j);
  friend bool operator==(const Configuration &, const Configuration &) = default;
};

} // namespace liftcc::driver
