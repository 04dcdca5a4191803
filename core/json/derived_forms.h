#pragma once
// The derived forms of the JSON format: mapN, padN, slideN and zipN, with a
// `dims` field. They are not primitives (core/ir/op.h has none of them): the
// reader expands them to the 1D compositions of core/ir/nd_forms.h, and the
// writer uses them wherever the IR has exactly that shape.

#include <optional>
#include <string_view>
#include <vector>

namespace liftcc {

enum class DerivedForm { MapN, PadN, SlideN, ZipN };

struct DerivedFormInfo {
  DerivedForm form;
  std::string_view name;
  std::vector<std::string_view> fields; ///< besides "op", in the order the writer writes them
  std::string_view summary;             ///< one line for the documentation (docs/program.schema.json)
  std::string_view expansion;           ///< what dims = 2 expands to (docs/program-format.md)
};

const std::vector<DerivedFormInfo> &derivedForms();
const DerivedFormInfo &derivedFormInfo(DerivedForm form);
std::optional<DerivedForm> derivedFormByName(std::string_view name);

/// The stencil form's "op" (core/ir/stencil_form.h; not in the table above:
/// its fields are not those of a composition of primitives).
inline constexpr std::string_view kStencilFormName = "stencil";

/// The largest `dims` the reader accepts (the IR has no limit; this keeps a
/// typo such as 1000 from building a huge expansion).
inline constexpr int kMaxDerivedDims = 16;

} // namespace liftcc
