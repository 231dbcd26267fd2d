#include "rubric.h"

#include <set>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "labbook/model/quantity.h"
#include "labbook/model/toml_reader.h"

namespace labbook::grading {

namespace {

Criterion parse_criterion(const toml::table& t, const std::string& origin) {
  const TomlReader r(t, origin, "[[criterion]]");
  r.only({"id", "title", "points", "correctness", "absolute_tolerance", "relative_tolerance", "measure", "full_at",
          "zero_at", "visible", "hint", "needs_correct", "needs_full"});
  Criterion c;
  c.id = r.string("id");
  c.title = r.string("title");
  c.line = r.line();
  const auto points = r.number("points");
  if (*points <= 0) r.fail("points", "must be positive");
  c.points = *points;
  c.correctness = r.boolean("correctness", false);
  const std::string measure = r.string("measure", false);
  if (c.correctness == !measure.empty())
    r.fail(t.source(), "needs either 'correctness = true' or a 'measure', not both");
  for (const auto& [key, value] : {std::pair{"absolute_tolerance", &c.absolute_tolerance},
                                   std::pair{"relative_tolerance", &c.relative_tolerance}}) {
    const auto v = r.number(key, false);
    if (!v) continue;
    if (!c.correctness) r.fail(key, "belongs to the correctness criterion");
    if (!(*v >= 0)) r.fail(key, "must be 0 or more");
    *value = *v;
  }
  if (!measure.empty()) {
    c.measure = Quantity::find(measure, QuantityScope::kCall);
    if (!c.measure)
      r.fail("measure", "is '" + measure + "', which labbook does not measure (closest: " +
                            closest_quantities(measure, QuantityScope::kCall) + "; `labbook metrics` lists the catalog)");
    const auto full = r.number("full_at", false), zero = r.number("zero_at", false);
    if (!full || !zero) r.fail(t.source(), "a measured criterion needs 'full_at' and 'zero_at'");
    if (*full == *zero) r.fail("zero_at", "must differ from 'full_at' (partial credit runs between them)");
    c.full_at = *full;
    c.zero_at = *zero;
  }
  c.visible = r.boolean("visible", true);
  c.hint = r.string("hint", false);
  c.needs_correct = r.boolean("needs_correct", !c.correctness);
  c.needs_full = r.strings("needs_full", false);
  if (c.correctness && !c.needs_full.empty()) r.fail("needs_full", "belongs to a measured criterion");
  return c;
}

}  // namespace

double Rubric::max_points() const {
  double total = 0;
  for (const auto& c : criteria) total += c.points;
  return total;
}

Rubric parse_rubric(const std::string& text, const std::string& origin) {
  const toml::table root = parse_toml(text, origin);
  const TomlReader top(root, origin, "rubric");
  top.only({"rubric", "criterion"});
  const toml::node* head_node = root.get("rubric");
  if (!head_node || !head_node->is_table()) top.fail(root.source(), "missing table [rubric]");
  const TomlReader head(*head_node->as_table(), origin, "[rubric]");
  head.only({"exercise", "title"});
  Rubric rubric;
  rubric.path = origin;
  rubric.exercise = head.string("exercise");
  rubric.title = head.string("title");

  const toml::node* list = root.get("criterion");
  if (!list || !list->is_array_of_tables()) top.fail(root.source(), "needs at least one [[criterion]]");
  std::set<std::string> ids;
  for (const auto& node : *list->as_array()) {
    Criterion c = parse_criterion(*node.as_table(), origin);
    if (!ids.insert(c.id).second)
      TomlReader(*node.as_table(), origin, "[[criterion]]").fail("id", "repeats '" + c.id + "'");
    // Named criteria come first, so that one is scored before another waits on it.
    for (const auto& needed : c.needs_full)
      if (!ids.count(needed) || needed == c.id)
        TomlReader(*node.as_table(), origin, "[[criterion]]")
            .fail("needs_full", "names '" + needed + "', which is no criterion above this one");
    if (c.correctness && rubric.correctness())
      TomlReader(*node.as_table(), origin, "[[criterion]]").fail("correctness", "is set twice: a rubric has one correctness criterion");
    rubric.criteria.push_back(std::move(c));
  }
  return rubric;
}

const Criterion* Rubric::correctness() const {
  for (const auto& c : criteria)
    if (c.correctness) return &c;
  return nullptr;
}

Rubric load_rubric(const std::string& path) { return parse_rubric(read_file(path), path); }

}  // namespace labbook::grading
