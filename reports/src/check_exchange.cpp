#include "pecheck/reports/check_exchange.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "pecheck/properties/faulty_subjects.hpp"

namespace pecheck::reports {

namespace {

using Json = nlohmann::ordered_json;
using properties::Quantity;

constexpr auto last_quantity = static_cast<int>(Quantity::training_accuracy_lower_limit);
constexpr auto last_family = static_cast<int>(properties::Family::training);

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json catches_json(const std::vector<std::string_view>& names) {
  Json list = Json::array();
  for (std::string_view name : names) list.push_back(std::string(name));
  return list;
}

Json key_json(const properties::StatisticKey& key) {
  // The training family files its keys by quantity, run and step only.
  return {{"quantity", std::string(properties::to_string(key.quantity))}, {"run", key.run}, {"step", key.step}};
}

Json outcome_json(const properties::Outcome& o) {
  Json statistics = Json::array();
  for (const properties::Statistic& s : o.statistics) {
    Json j = {{"name", s.name},
              {"value", s.value},
              {"lower_bound", optional_number(s.lower_bound)},
              {"upper_bound", optional_number(s.upper_bound)},
              {"note", s.note},
              {"key", key_json(s.key)}};
    if (s.spread) j["spread"] = {{"standard_deviation", s.spread->standard_deviation}, {"draws", s.spread->draws}};
    statistics.push_back(std::move(j));
  }
  Json series = Json::array();
  for (const properties::Series& s : o.series) {
    series.push_back({{"name", s.name}, {"x_label", s.x_label}, {"y_label", s.y_label}, {"x", s.x}, {"y", s.y}});
  }
  return {{"verdict", std::string(properties::to_string(o.verdict))},
          {"cases", o.cases},
          {"message", o.message},
          {"statistics", std::move(statistics)},
          {"series", std::move(series)}};
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& expected) const {
    throw std::runtime_error(source_ + ": field '" + field + "': expected " + expected);
  }
  const Json& at(const Json& j, const std::string& field, const char* expected) const {
    if (!j.is_object() || !j.contains(field)) fail(field, expected);
    return j.at(field);
  }
  std::string text(const Json& j, const std::string& field) const {
    const Json& v = at(j, field, "a string");
    if (!v.is_string()) fail(field, "a string");
    return v.get<std::string>();
  }
  double number(const Json& j, const std::string& field) const {
    const Json& v = at(j, field, "a number");
    if (!v.is_number()) fail(field, "a number");
    return v.get<double>();
  }
  std::optional<double> maybe(const Json& j, const std::string& field) const {
    const Json& v = at(j, field, "a number or null");
    if (v.is_null()) return std::nullopt;
    if (!v.is_number()) fail(field, "a number or null");
    return v.get<double>();
  }
  std::vector<double> numbers(const Json& j, const std::string& field) const {
    const Json& v = at(j, field, "an array of numbers");
    std::vector<double> out;
    if (!v.is_array()) fail(field, "an array of numbers");
    for (const Json& x : v) {
      if (!x.is_number()) fail(field, "an array of numbers");
      out.push_back(x.get<double>());
    }
    return out;
  }

  properties::Outcome outcome(const Json& j) const {
    properties::Outcome o;
    const std::string verdict = text(j, "verdict");
    bool known = false;
    for (auto v : {properties::Verdict::held, properties::Verdict::failed, properties::Verdict::not_applicable,
                   properties::Verdict::not_run, properties::Verdict::info}) {
      if (properties::to_string(v) == verdict) o.verdict = v, known = true;
    }
    if (!known) fail("verdict", "held, failed, not applicable, not run or info");
    o.cases = static_cast<std::int64_t>(number(j, "cases"));
    o.message = text(j, "message");
    for (const Json& s : at(j, "statistics", "an array")) {
      properties::Statistic statistic;
      statistic.name = text(s, "name");
      statistic.value = number(s, "value");
      statistic.lower_bound = maybe(s, "lower_bound");
      statistic.upper_bound = maybe(s, "upper_bound");
      statistic.note = text(s, "note");
      const Json& key = at(s, "key", "an object");
      statistic.key.quantity = quantity(text(key, "quantity"));
      statistic.key.run = text(key, "run");
      statistic.key.step = static_cast<std::int64_t>(number(key, "step"));
      if (s.contains("spread")) {
        const Json& spread = s.at("spread");
        statistic.spread = properties::Spread{number(spread, "standard_deviation"),
                                              static_cast<std::int64_t>(number(spread, "draws"))};
      }
      o.statistics.push_back(std::move(statistic));
    }
    for (const Json& s : at(j, "series", "an array")) {
      properties::Series series{text(s, "name"), text(s, "x_label"), text(s, "y_label"), numbers(s, "x"),
                                numbers(s, "y")};
      if (series.x.size() != series.y.size()) fail("series.y", "as many values as x");
      o.series.push_back(std::move(series));
    }
    return o;
  }

  Quantity quantity(const std::string& name) const {
    for (int q = 0; q <= last_quantity; ++q) {
      if (properties::to_string(static_cast<Quantity>(q)) == name) return static_cast<Quantity>(q);
    }
    fail("quantity", "a quantity pecheck knows (statistic_key.hpp), not '" + name + "'");
  }

  // Each name as the fault list spells it (the list's own string_view, which
  // outlives the check); a name it does not hold is bad input.
  std::vector<std::string_view> catches(const Json& check) const {
    std::vector<std::string_view> names;
    const Json& list = at(check, "catches", "an array of fault names");
    if (!list.is_array()) fail("catches", "an array of fault names");
    for (const Json& name : list) {
      if (!name.is_string()) fail("catches", "an array of fault names");
      const auto& all = properties::fault_matrix();
      const auto fault = std::find_if(all.begin(), all.end(), [&](const properties::Fault& f) { return f.name == name; });
      if (fault == all.end()) fail("catches", "names of faults pecheck knows, not '" + name.get<std::string>() + "'");
      names.push_back(fault->name);
    }
    return names;
  }

  properties::Family family(const std::string& name) const {
    for (int f = 0; f <= last_family; ++f) {
      if (properties::to_string(static_cast<properties::Family>(f)) == name) return static_cast<properties::Family>(f);
    }
    fail("family", "a family pecheck knows, not '" + name + "'");
  }

 private:
  std::string source_;
};

}  // namespace

std::string write_exchanged_checks(const std::vector<ExchangedCheck>& checks) {
  Json all = Json::array();
  for (const ExchangedCheck& c : checks) {
    all.push_back({{"id", c.check.id},
                   {"family", std::string(properties::to_string(c.check.family))},
                   {"claim", c.check.claim},
                   {"source", c.check.source},
                   {"kind", std::string(properties::to_string(c.check.kind))},
                   {"short_claim", c.check.short_claim},
                   {"catches", catches_json(c.check.catches)},
                   {"outcome", outcome_json(c.outcome)}});
  }
  return Json{{"checks", std::move(all)}}.dump(1) + "\n";
}

std::vector<ExchangedCheck> read_exchanged_checks(const std::string& json, const std::string& source) {
  const Reader r(source);
  const Json document = Json::parse(json, nullptr, false);
  if (document.is_discarded()) r.fail("(document)", "JSON");
  std::vector<ExchangedCheck> checks;
  for (const Json& c : r.at(document, "checks", "an array of checks")) {
    ExchangedCheck e;
    e.check.id = r.text(c, "id");
    e.check.family = r.family(r.text(c, "family"));
    e.check.claim = r.text(c, "claim");
    e.check.source = r.text(c, "source");
    e.check.kind =
        r.text(c, "kind") == "property" ? properties::CheckKind::property : properties::CheckKind::measurement;
    e.check.short_claim = r.text(c, "short_claim");
    // A check that names the faults it catches is a claim (the fault matrix
    // proves it where it is defined); one that names none, an observation.
    e.check.catches = r.catches(c);
    e.check.role = e.check.catches.empty() ? properties::CheckRole::observation : properties::CheckRole::claim;
    e.outcome = r.outcome(r.at(c, "outcome", "an object"));
    e.outcome.check_id = e.check.id;
    checks.push_back(std::move(e));
  }
  return checks;
}

}  // namespace pecheck::reports
