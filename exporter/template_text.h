#pragma once
// The C templates of the host-code emitters (exporter/templates/*.in,
// compiled into the library): their sections, and the @NAME@ placeholders
// the emitters fill.

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace liftcc::exporter {

/// The files of exporter/templates/, name and text (generated at build by
/// exporter/embed_templates.cmake).
std::vector<std::pair<std::string_view, std::string_view>> embeddedTemplateFiles();

/// A template file's sections by name: a line "@@ NAME [note]" starts the
/// section NAME, which is every line after it up to the next such line or
/// the end of the file, line breaks included; text before the first section
/// is part of none.
using TemplateSections = std::map<std::string, std::string>;

/// The sections of `text`; a section named twice is a bug, reported as
/// std::logic_error.
TemplateSections templateSections(std::string_view text);

/// The sections of the embedded template file `file` ("opencl.c.in"); a file
/// that is not embedded is a bug, reported as std::logic_error.
TemplateSections templateFile(std::string_view file);

/// The section `name` of `sections`; a missing one is a bug (std::logic_error).
const std::string &section(const TemplateSections &sections, const std::string &name);

/// The "KEY value" lines of a names section, by key.
std::map<std::string, std::string> templateWords(const std::string &section);

/// Replaces every @KEY@ of `text` by its value. A placeholder without a
/// value is a bug in the emitter, reported as std::logic_error.
std::string substitute(const std::string &text, const std::map<std::string, std::string> &values);

} // namespace liftcc::exporter
