#pragma once
/// @file
/// The sources' claims on a sheet: all of them in one summary table under the title (what the
/// source says, what this GPU gives, the verdict, the section that shows it), then each again
/// with its reason under the question whose experiments it compares.
#include <string>
#include <vector>

#include "citations.h"
#include "claim_verdict.h"
#include "lab_data.h"
#include "sheet.h"

namespace labbook::report {

/// A section of the sheet a claim can belong to: its heading and the experiments it shows
/// (a sweep's "<group>/<parameter>=" prefixes count as experiments that start with them).
struct ClaimHome {
  std::string heading;
  std::vector<std::string> experiments;
  std::vector<std::string> prefixes = {};
  bool shows(const std::string& experiment) const;
};

struct JudgedClaim {
  const Claim* claim = nullptr;
  ClaimOutcome outcome;
  int citation = 0;   ///< its number in the references
  int home = -1;      ///< index into the homes, -1 for none
  /// The claim decided on each of the other GPUs' recordings (SheetContext::beside).
  std::vector<ClaimOutcome> beside = {};
  /// Whether another GPU's recording gives another verdict.
  bool differs_across_gpus() const;
};

/// Every claim of the lab decided on `m`, each placed in the first home that shows one of the
/// experiments it compares.
/// `beside`: other GPUs' recordings, each claim decided on them too.
std::vector<JudgedClaim> judge_claims(const LabData& lab, const Measurement& m, Citations& citations,
                                      const std::vector<ClaimHome>& homes, const std::vector<Measurement>& beside = {});

/// A verdict as a badge and its word ("✓ holds"), the same in every table that shows one.
Text verdict_text(Verdict verdict);

/// The summary table (and every claim in the sheet's JSON).
/// `beside_gpus`: the GPU of each other recording the claims were decided on.
void add_claims_summary(Sheet& sheet, const LabData& lab, const std::vector<JudgedClaim>& claims,
                        const std::vector<ClaimHome>& homes, const std::string& measured_title,
                        const std::vector<std::string>& beside_gpus = {});

/// The claims placed in `home` (-1: those without one), each with its verdict's reason.
/// `beside_gpus`: the other recordings' GPUs, in the order of JudgedClaim::beside. `experiment`:
/// how the home's experiment runs, folded under the same line as its claims.
void add_claims_of(Sheet& sheet, const std::vector<JudgedClaim>& claims, int home,
                   const std::vector<std::string>& beside_gpus = {}, Sheet experiment = {});

}  // namespace labbook::report
