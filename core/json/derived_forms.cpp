#include "core/json/derived_forms.h"

namespace liftcc {

const std::vector<DerivedFormInfo> &derivedForms() {
  static const std::vector<DerivedFormInfo> table{
      {DerivedForm::MapN,
       "mapN",
       {"dims", "f", "in"},
       "map over the elements of a dims-dimensional array",
       "map(\\x. map(f, x), in)"},
      {DerivedForm::PadN,
       "padN",
       {"dims", "left", "right", "mode", "in"},
       "pad every dimension: pad the outermost, then map padN(dims-1) over the rows",
       "map(\\x. pad(l1, r1, m1, x), pad(l0, r0, m0, in))"},
      {DerivedForm::SlideN,
       "slideN",
       {"dims", "size", "step", "in"},
       "the dims-dimensional windows of size points every step points in each dimension: [n1..nd] -> "
       "[c1..cd][size..size]",
       "map(\\w. transpose(w), slide(size, step, map(\\x. slide(size, step, x), in)))"},
      {DerivedForm::ZipN,
       "zipN",
       {"dims", "in"},
       "zip dims-dimensional arrays of the same shape element-wise",
       "map(\\t. zip(get(0, t), get(1, t), ...), zip(in...))"},
  };
  return table;
}

const DerivedFormInfo &derivedFormInfo(DerivedForm form) { return derivedForms()[static_cast<size_t>(form)]; }

std::optional<DerivedForm> derivedFormByName(std::string_view name) {
  for (const DerivedFormInfo &info : derivedForms())
    if (info.name == name) return info.form;
  return std::nullopt;
}

} // namespace liftcc
