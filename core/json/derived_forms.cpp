#include "core/json/derived_forms.h"

namespace liftcc {

const std::vector<DerivedFormInfo> &derivedForms() {
  static const std::vector<DerivedFormInfo> table{
      {DerivedForm::MapN, "mapN", {"dims", "f", "in"}},
      {DerivedForm::PadN, "padN", {"dims", "left", "right", "mode", "in"}},
      {DerivedForm::SlideN, "slideN", {"dims", "size", "step", "in"}},
      {DerivedForm::ZipN, "zipN", {"dims", "in"}},
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
