#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "lab_data.h"
#include "labbook/model/atomic_file.h"
#include "labbook/model/error.h"
#include "lab_toml_fixture.h"
#include "labbook/model/measurement_json.h"
#include "model_predictions.h"
#include "named_quantity.h"

using namespace labbook::report;

namespace {
const char* kMinimal = R"([lab]
id = "labX"
title = "X"
summary = "what X teaches"
program = "x"
source = "003_c67e0f909fb510d6.txt"
metrics = ["gld_efficiency"]

[sheet]
goals = "g"
background = "b"
look_at = "l"
questions = ["q?"]

[[section]]
title = "S"
experiments = ["readSegment/offset=0"]
quantities = ["gld_efficiency", "time"]
)";

}  // namespace

TEST(LabData, ParsesAMinimalLab) {
  const LabData lab = parse_lab_data(kMinimal, "lab.toml");
  EXPECT_EQ(lab.id, "labX");
  ASSERT_EQ(lab.sections.size(), 1u);
  EXPECT_EQ(lab.sections[0].quantities.at(1).name(), "time");
  EXPECT_EQ(lab.experiments(), std::vector<std::string>{"readSegment/offset=0"});
}

TEST(LabData, APlaceholderInProseNamesAKnownQuantity) {
  // A typo in "{range:quantity}" would print "(not measured)" on every sheet: the file is refused.
  std::string lab = kMinimal;
  lab.insert(lab.find("quantities = [\"gld_efficiency\""), "text = \"read {readSegment/offset=0:gld_efficency}\"\n");
  EXPECT_EQ(fixture::lab_toml_error(lab),
            "lab.toml:18: [[section]]: 'text' names unknown quantity 'gld_efficency' in "
            "{readSegment/offset=0:gld_efficency} (closest: gld_efficiency, gst_efficiency, shared_efficiency)");
}

TEST(LabData, ErrorsNameFileLineAndField) {
  EXPECT_EQ(fixture::lab_toml_error(std::string(kMinimal) + "\n[[reference]]\nexperiment = \"e\"\nquantity = \"gld_efficency\"\n"),
            "lab.toml:22: [[reference]]: 'quantity' names unknown quantity 'gld_efficency' (closest: gld_efficiency, "
            "gst_efficiency, shared_efficiency)");
  EXPECT_EQ(fixture::lab_toml_error(std::string(kMinimal) +
                     "\n[[reference]]\nexperiment = \"e\"\nquantity = \"time\"\nvalue = \"fast\"\n"),
            "lab.toml:23: [[reference]]: 'value' must be a number");
  const std::string no_citation = std::string(kMinimal) +
                                  "\n[[reference]]\nexperiment = \"e\"\nquantity = \"time\"\nvalue = 1\nunit = \"ns\"\n"
                                  "gpu = \"g\"\ncitation = \"the book\"\n";
  EXPECT_NE(fixture::lab_toml_error(no_citation).find("lab.toml:26: [[reference]]: 'citation' must name a source file"), std::string::npos)
      << fixture::lab_toml_error(no_citation);
  const std::string time_in_ms = std::string(kMinimal) +
                                 "\n[[reference]]\nexperiment = \"e\"\nquantity = \"time\"\nvalue = 1\nunit = \"ms\"\n";
  EXPECT_NE(fixture::lab_toml_error(time_in_ms).find("lab.toml:24: [[reference]]: 'unit' must be 'ns', the unit of 'time'"), std::string::npos)
      << fixture::lab_toml_error(time_in_ms);
  EXPECT_NE(fixture::lab_toml_error("[lab]\nid = 3\n").find("lab.toml:2: [lab]: 'id' must be a string"), std::string::npos)
      << fixture::lab_toml_error("[lab]\nid = 3\n");
  EXPECT_NE(fixture::lab_toml_error("[lab\n").find("lab.toml:1: "), std::string::npos) << fixture::lab_toml_error("[lab\n");
}

TEST(LabData, BestClaimMustNameOneOfItsCandidates) {
  const std::string text = std::string(kMinimal) +
                           "\n[[claim]]\ntext = \"t\"\ncitation = \"c.txt\"\nquantity = \"time\"\nbest = \"z\"\n"
                           "candidates = [\"a\", \"b\"]\n";
  EXPECT_NE(fixture::lab_toml_error(text).find("'best' must be one of 'candidates'"), std::string::npos) << fixture::lab_toml_error(text);
  // One candidate is no comparison: the verdict would read a runner-up that does not exist.
  const std::string alone = std::string(kMinimal) +
                            "\n[[claim]]\ntext = \"t\"\ncitation = \"c.txt\"\nquantity = \"time\"\nbest = \"a\"\n"
                            "candidates = [\"a\"]\n";
  EXPECT_NE(fixture::lab_toml_error(alone).find("'candidates' must name at least two experiments"),
            std::string::npos)
      << fixture::lab_toml_error(alone);
}

TEST(LabData, TheShippedLab4DataIsValidAndCitesEveryReference) {
  const LabData lab = load_lab_data(std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory/lab.toml");
  EXPECT_EQ(lab.id, "lab4");
  EXPECT_GE(lab.references.size(), 10u);
  bool has_4981 = false;
  for (const auto& r : lab.references) {
    EXPECT_NE(r.citation.find("003_c67e0f909fb510d6.txt"), std::string::npos) << r.experiment;
    has_4981 = has_4981 || (r.experiment == "readSegment/offset=11" && r.value == 49.81);
  }
  EXPECT_TRUE(has_4981);
}

TEST(LabData, ModelSectionNamesArchitecturesAndKernelsTheModelKnows) {
  const std::string model = std::string(kMinimal) + R"(
[model]
this_architecture = "sm_90"
source_params = { n = 1048576 }

[[model.pattern]]
experiments = "readSegment/*"
kernel = "readSegment"
source_architecture = "fermi_ca"
)";
  const LabData lab = parse_lab_data(model, "lab.toml");
  ASSERT_TRUE(lab.model.has_value());
  ASSERT_NE(lab.model->pattern_for("readSegment/offset=11"), nullptr);
  EXPECT_EQ(lab.model->pattern_for("writeSegment/offset=11"), nullptr);
  EXPECT_DOUBLE_EQ(lab.model->tolerance, 1.0);

  std::string bad = model;
  bad.replace(bad.find("\"fermi_ca\""), 10, "\"kepler\"");
  EXPECT_NE(fixture::lab_toml_error(bad).find("lab.toml:27: [[model.pattern]]: 'source_architecture' unknown architecture 'kepler'"),
            std::string::npos)
      << fixture::lab_toml_error(bad);
  bad = model;
  bad.replace(bad.find("kernel = \"readSegment\""), 22, "kernel = \"transpose\"");
  EXPECT_NE(fixture::lab_toml_error(bad).find("'kernel' the warp model has no kernel 'transpose' (known: "), std::string::npos)
      << fixture::lab_toml_error(bad);
}

TEST(LabData, PatternParametersAreIntegers) {
  const std::string model = std::string(kMinimal) + R"(
[model]
this_architecture = "sm_90"
source_params = { n = 1048576 }

[[model.pattern]]
experiments = "readSegmentUnroll/*"
kernel = "readSegmentUnroll"
source_architecture = "fermi_ca"
params = { offset = 11, unroll = 4 }
)";
  const LabData lab = parse_lab_data(model, "lab.toml");
  EXPECT_EQ(lab.model->source_params.at("n"), 1048576);
  EXPECT_EQ(lab.model->patterns.at(0).params.at("unroll"), 4);
  std::string bad = model;
  bad.replace(bad.find("unroll = 4"), 10, "unroll = \"four\"");
  EXPECT_NE(fixture::lab_toml_error(bad).find("lab.toml:28: [[model.pattern]]: 'params.unroll' must be an integer"), std::string::npos)
      << fixture::lab_toml_error(bad);
}

TEST(LabData, ACheckHasExactlyOneKind) {
  const std::string check = std::string(kMinimal) + R"(
[[check]]
experiments = "readSegment/*"
quantity = "gld_efficiency"
value = 80.0
tolerance = 0.5
)";
  const LabData lab = parse_lab_data(check, "lab.toml");
  ASSERT_EQ(lab.checks.size(), 1u);
  EXPECT_EQ(*lab.checks[0].value, 80.0);
  EXPECT_EQ(lab.checks[0].line, 20);
  std::string two = check + "at_least = 3\n";
  EXPECT_NE(fixture::lab_toml_error(two).find("lab.toml:20: [[check]]: needs exactly one of"), std::string::npos) << fixture::lab_toml_error(two);
  std::string none = std::string(kMinimal) + "\n[[check]]\nexperiments = \"a\"\nquantity = \"time\"\n";
  EXPECT_NE(fixture::lab_toml_error(none).find("needs exactly one of"), std::string::npos) << fixture::lab_toml_error(none);
  std::string predicted = std::string(kMinimal) + "\n[[check]]\nexperiments = \"a\"\nquantity = \"time\"\nas_predicted = true\n";
  EXPECT_NE(fixture::lab_toml_error(predicted).find("'as_predicted' needs a [model] table"), std::string::npos) << fixture::lab_toml_error(predicted);
}

TEST(LabData, CitationsOfSourceFilesMustNameADocumentOfSourcesToml) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("labbook_sources_" + std::to_string(::getpid()));
  fs::create_directories(root / "09_x");
  labbook::write_file_atomically((root / "sources.toml").string(),
                                 "[[source]]\nfile = \"004_12112d3317679e06.txt\"\nshort = \"Slides (de)\"\n"
                                 "title = \"t\"\nlanguage = \"German\"\nyear = 2013\nyear_basis = \"estimated: CUDA 5.5\"\n");
  const std::string reference =
      "[[section]]\ntitle = \"S\"\nexperiments = [\"e\"]\nquantities = [\"time\"]\n"
      "[[reference]]\nexperiment = \"e\"\nquantity = \"time\"\nvalue = 1\nunit = \"ns\"\ngpu = \"g\"\ncitation = \"";
  const std::string lab = (root / "09_x" / "lab.toml").string();
  labbook::write_file_atomically(lab, fixture::lab_toml_head() + reference + "004_12112d3317679e06.txt, « a slide »\"\n");
  const LabData ok = load_lab_data(lab);
  ASSERT_EQ(ok.sources.size(), 1u);
  EXPECT_EQ(ok.sources[0].short_name, "Slides (de)");
  EXPECT_EQ(ok.sources[0].summary(), "« t »; no author named; 2013 (estimated); German");

  labbook::write_file_atomically(lab, fixture::lab_toml_head() + reference + "005_0000000000000000.txt, « a slide »\"\n");
  try {
    load_lab_data(lab);
    ADD_FAILURE() << "a citation of an unlisted document loaded";
  } catch (const labbook::Error& e) {
    EXPECT_NE(std::string(e.what()).find("names '005_0000000000000000.txt', which"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("lab.toml:"), std::string::npos) << e.what();
  }
  fs::remove_all(root);
}

TEST(LabData, FigureStoresAreFiguresWhosePictureShowsTheStore) {
  const std::string model = std::string(kMinimal) + R"(
[model]
this_architecture = "sm_90"
figures = ["storePattern/three_segments"]
figure_stores = ["storePattern/three_segment"]
)";
  EXPECT_NE(fixture::lab_toml_error(model).find(
                "[model]: 'figure_stores' names 'storePattern/three_segment', which is not one of 'figures'"),
            std::string::npos)
      << fixture::lab_toml_error(model);

  // Lab 4's figure 4-20 kernel loads 24 words (75 % of a Fermi line) and stores them in three
  // whole segments: its picture is the store, the lesson of the figure.
  const std::string folder = std::string(LABBOOK_SOURCE_DIR) + "/labs/04_global_memory";
  const LabData lab = load_lab_data(folder + "/lab.toml");
  const labbook::Measurement m = labbook::read_measurement(folder + "/recorded/h100.json");
  ModelPredictions predictions(lab, m);
  const auto shown = predictions.telling_access("storePattern/three_segments");
  ASSERT_TRUE(shown.has_value());
  EXPECT_EQ(shown->op, labbook::warp::Operation::Store);
  const auto unlisted = predictions.telling_access("readSegment/offset=11");
  ASSERT_TRUE(unlisted.has_value());
  EXPECT_EQ(unlisted->op, labbook::warp::Operation::Load);
}
