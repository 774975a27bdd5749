// Checks handed over from pecheck-training as JSON: the faults a check names
// cross with it, so that a training check proven by the fault matrix is a
// claim in the report too, and one that names none an observation.
#include <gtest/gtest.h>

#include <stdexcept>

#include "pecheck/properties/fault_names.hpp"
#include "pecheck/reports/check_exchange.hpp"

namespace pecheck::reports {
namespace {

ExchangedCheck exchanged(std::string id, std::vector<std::string_view> catches) {
  ExchangedCheck e;
  e.check.id = std::move(id);
  e.check.family = properties::Family::training;
  e.check.claim = "claim";
  e.check.source = "source";
  e.check.kind = properties::CheckKind::measurement;
  e.check.short_claim = "shortClaim";
  e.check.catches = std::move(catches);
  e.outcome.verdict = properties::Verdict::held;
  e.outcome.cases = 3;
  e.outcome.message = "held";
  return e;
}

TEST(CheckExchange, aChecksFaultsCrossWithItAndMakeItAClaim) {
  const std::string json = write_exchanged_checks(
      {exchanged("training/a", {properties::faults::scale_missing, properties::faults::scale_divided}),
       exchanged("training/b", {})});
  const std::vector<ExchangedCheck> read = read_exchanged_checks(json, "training.json");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].check.catches,
            (std::vector<std::string_view>{properties::faults::scale_missing, properties::faults::scale_divided}));
  EXPECT_EQ(read[0].check.role, properties::CheckRole::claim);
  EXPECT_TRUE(read[1].check.catches.empty());
  EXPECT_EQ(read[1].check.role, properties::CheckRole::observation);
}

TEST(CheckExchange, aFaultNameTheListDoesNotHoldIsBadInputNamingTheField) {
  std::string json = write_exchanged_checks({exchanged("training/a", {properties::faults::scale_missing})});
  json.replace(json.find("scale-missing"), 13, "scale-mising!");
  try {
    read_exchanged_checks(json, "training.json");
    FAIL() << "an unknown fault name was accepted";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("training.json"), std::string::npos) << message;
    EXPECT_NE(message.find("'catches'"), std::string::npos) << message;
    EXPECT_NE(message.find("scale-mising!"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace pecheck::reports
