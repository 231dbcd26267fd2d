#include "rubric.h"

#include <set>

#include <toml++/toml.h>

#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"

namespace labbook::grading {

namespace {

/// Every error names origin:line, the table and the key.
class Reader {
 public:
  Reader(const toml::table& t, const std::string& origin, std::string where)
      : t_(t), origin_(origin), where_(std::move(where)) {}

  [[noreturn]] void fail(const toml::source_region& at, const std::string& why) const {
    throw Error(origin_ + ":" + std::to_string(at.begin.line) + ": " + where_ + ": " + why);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    const toml::node* n = t_.get(key);
    fail(n ? n->source() : t_.source(), "'" + key + "' " + why);
  }
  std::string string(const std::string& key, bool required = true) const {
    const toml::node* n = t_.get(key);
    if (!n) {
      if (required) fail(t_.source(), "missing '" + key + "'");
      return {};
    }
    if (!n->is_string()) fail(key, "must be a string");
    return n->as_string()->get();
  }
  std::optional<double> number(const std::string& key) const {
    const toml::node* n = t_.get(key);
    if (!n) return std::nullopt;
    if (n->is_integer()) return static_cast<double>(n->as_integer()->get());
    if (!n->is_floating_point()) fail(key, "must be a number");
    return n->as_floating_point()->get();
  }
  bool boolean(const std::string& key, bool fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if (!n->is_boolean()) fail(key, "must be true or false");
    return n->as_boolean()->get();
  }
  /// Keys this table may hold: a misspelt key is an error, not a silent default.
  void only(const std::set<std::string>& known) const {
    for (const auto& [key, node] : t_)
      if (!known.count(std::string(key.str()))) fail(node.source(), "unknown key '" + std::string(key.str()) + "'");
  }
  int line() const { return static_cast<int>(t_.source().begin.line); }

 private:
  const toml::table& t_;
  const std::string& origin_;
  std::string where_;
};

Criterion parse_criterion(const toml::table& t, const std::string& origin) {
  const Reader r(t, origin, "[[criterion]]");
  r.only({"id", "title", "points", "correctness", "measure", "full_at", "zero_at", "visible", "hint", "needs_correct"});
  Criterion c;
  c.id = r.string("id");
  c.title = r.string("title");
  c.line = r.line();
  const auto points = r.number("points");
  if (!points) r.fail(t.source(), "missing 'points'");
  if (*points <= 0) r.fail("points", "must be positive");
  c.points = *points;
  c.correctness = r.boolean("correctness", false);
  c.measure = r.string("measure", false);
  if (c.correctness == !c.measure.empty())
    r.fail(t.source(), "needs either 'correctness = true' or a 'measure', not both");
  if (!c.measure.empty()) {
    const auto full = r.number("full_at"), zero = r.number("zero_at");
    if (!full || !zero) r.fail(t.source(), "a measured criterion needs 'full_at' and 'zero_at'");
    if (*full == *zero) r.fail("zero_at", "must differ from 'full_at' (partial credit runs between them)");
    c.full_at = *full;
    c.zero_at = *zero;
  }
  c.visible = r.boolean("visible", true);
  c.hint = r.string("hint", false);
  c.needs_correct = r.boolean("needs_correct", !c.correctness);
  return c;
}

}  // namespace

double Rubric::max_points() const {
  double total = 0;
  for (const auto& c : criteria) total += c.points;
  return total;
}

Rubric parse_rubric(const std::string& text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw Error(origin + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const Reader top(root, origin, "rubric");
  top.only({"rubric", "criterion"});
  const toml::node* head_node = root.get("rubric");
  if (!head_node || !head_node->is_table()) top.fail(root.source(), "missing table [rubric]");
  const Reader head(*head_node->as_table(), origin, "[rubric]");
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
      Reader(*node.as_table(), origin, "[[criterion]]").fail("id", "repeats '" + c.id + "'");
    rubric.criteria.push_back(std::move(c));
  }
  return rubric;
}

Rubric load_rubric(const std::string& path) { return parse_rubric(read_file(path), path); }

}  // namespace labbook::grading
