// The hardware measurements in data/hw/ (what the model is held against) are well formed: every
// file names its device, date and method, and every figure has a unique id, the experiment, the
// metric, a unit and a value. The values themselves are measurements, so they are not checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

TEST(HwData, EveryFigureHasItsProvenance) {
  const fs::path dir = fs::path(STU_SOURCE_DIR) / "data" / "hw";
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  unsigned files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    std::ifstream in(entry.path());
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(doc.is_object());
    for (const char* key : {"device", "toolkit", "date", "how"}) {
      ASSERT_TRUE(doc.contains(key) && doc[key].is_string()) << key;
      EXPECT_FALSE(doc[key].get<std::string>().empty()) << key;
    }
    ASSERT_TRUE(doc.contains("figures") && doc["figures"].is_array());
    EXPECT_FALSE(doc["figures"].empty());
    std::set<std::string> ids;
    for (const auto& f : doc["figures"]) {
      for (const char* key : {"id", "experiment", "metric", "unit"}) {
        ASSERT_TRUE(f.contains(key) && f[key].is_string()) << f.dump() << ": " << key;
      }
      ASSERT_TRUE(f.contains("value")) << f.dump();
      // A number, or a symbolic law explained in a note ("k" cycles for stride k).
      EXPECT_TRUE(f["value"].is_number() || (f["value"].is_string() && f.contains("note")))
          << f.dump();
      EXPECT_TRUE(ids.insert(f["id"].get<std::string>()).second) << "duplicate id " << f["id"];
    }
  }
  EXPECT_GT(files, 0u);
}

}  // namespace
