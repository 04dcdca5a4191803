#pragma once
// The exported header and source of one target: the shared template
// (exporter/templates/host.c.in) filled with the values both targets compute
// alike and with the target's own sections (opencl.c.in, cuda.c.in).

#include "exporter/host_common.h"
#include "exporter/template_text.h"

#include <map>
#include <string>

namespace liftcc::exporter {

/// One target's template file: its sections and the words of its names
/// section (BUFFER, ERROR_TYPE, SUCCESS, FREE, MADE, NO_BUFFER).
struct TargetTemplates {
  TemplateSections sections;
  std::map<std::string, std::string> words;
};

/// The embedded template file `file` ("opencl.c.in").
TargetTemplates targetTemplates(const std::string &file);

/// The values of the placeholders both targets fill alike: the target's
/// words, the names, macros, launch parameters, kernel source and names, the
/// temporaries (their slots, sizes and the target's allocation at build)
/// and the launch function's argument checks.
std::map<std::string, std::string> sharedValues(const ExportPlan &plan, const HostNames &names,
                                                const TargetTemplates &target);

/// launchSchedule's hooks that come from the target's sections (copy_input,
/// allocate_scratch) and words; bind and enqueue are left to the target.
ScheduleHooks templateHooks(const TargetTemplates &target, const HostNames &names);

/// host.c.in's header and source filled with `values` (sharedValues and the
/// target's own) and the target's sections; `what` follows the file name in
/// the comment heading each file.
ExportedPair renderHostPair(const ExportPlan &plan, const TargetTemplates &target,
                            std::map<std::string, std::string> values, const std::string &what);

} // namespace liftcc::exporter
