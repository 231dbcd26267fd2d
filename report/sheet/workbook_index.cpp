#include "workbook_index.h"

namespace labbook::report {

Sheet build_workbook_index(const std::vector<WorkbookEntry>& labs, const std::vector<SourceDocument>& sources) {
  Sheet sheet;
  sheet.title = "labbook — the CUDA memory hierarchy, lab by lab";
  sheet.data = {{"labs", nlohmann::json::array()}};
  sheet.heading(1, sheet.title);
  sheet.markdown(
      "Each lab reproduces the experiments of the course's source documents on this GPU: the numbers the sources "
      "print, the numbers measured here, what a warp-level model predicts for both GPUs, and why they differ. "
      "Read a sheet from top to bottom, then answer its questions.");
  Table t{{"Lab", "What it teaches", "Exercises", "Measured on", "When"}, {}};
  for (const auto& lab : labs) {
    const Text name = lab.problem.empty() ? Text{link(lab.title, lab.id + ".md")}
                                          : Text{lab.title + " (no sheet: " + lab.problem + ")"};
    Text exercises;
    for (const auto& id : lab.exercises) {
      if (!exercises.spans.empty()) exercises.spans.push_back({", "});
      exercises.spans.push_back(code(id));
    }
    if (exercises.spans.empty()) exercises = Text{"—"};
    std::vector<Text> row = {name, lab.summary, exercises,
                             lab.problem.empty() ? lab.gpu + (lab.recorded ? " (recording)" : "") : "—",
                             lab.problem.empty() ? lab.measured_at : "—"};
    t.rows.push_back(std::move(row));
    sheet.data["labs"].push_back({{"id", lab.id}, {"title", lab.title}, {"summary", lab.summary}, {"gpu", lab.gpu},
                                  {"measured_at", lab.measured_at}, {"recorded", lab.recorded},
                                  {"problem", lab.problem}, {"exercises", lab.exercises}});
  }
  sheet.table(std::move(t));
  sheet.markdown("An exercise's handout: `labbook exercise ID` (all of them: `labbook exercise --list`); an "
                 "instructor grades a class with `labbook grade ID SUBMISSIONS`.");
  if (!sources.empty()) {
    sheet.heading(2, "Sources");
    sheet.markdown("The documents whose experiments the labs reproduce; sheets cite them by the short name in bold.");
    std::vector<Text> items;
    for (const auto& d : sources) {
      items.push_back({strong(d.short_name), {": " + d.summary() + "; "}, code(d.file)});
      sheet.data["sources"].push_back({{"file", d.file}, {"short", d.short_name}, {"title", d.title},
                                       {"author", d.author}, {"year", d.year}, {"language", d.language}});
    }
    sheet.list(std::move(items));
  }
  sheet.markdown("Words such as *sector*, *bank conflict* or *pinned memory* are explained in the "
                 "[glossary](glossary.md); in the HTML sheets, the first use of each links there.");
  sheet.markdown("Written by `labbook workbook` (`make labs`); each sheet says how its numbers were collected.");
  return sheet;
}

}  // namespace labbook::report
