// The invariant-log columns a model declares (core/LogColumns.hpp): a row keeps each value beside
// its declared column, resolves configuration-dependent kinds only where declared, refuses an
// undeclared column, and renders the Markdown table of docs/output.md.
#include <gtest/gtest.h>

#include "core/Error.hpp"
#include "core/LogColumns.hpp"

using namespace kirchhoff;

namespace {

const std::vector<Column>& table() {
  static const std::vector<Column> c = {
      {"time", "s", Kind::Coordinate, "time t = k dt"},
      {"energy", "J/m", Kind::Conserved, "E - E_rest"},
      Column("impulse", "1", Kind::Diagnostic, "sum K |x|^2").conservedWhen("without bodies"),
      Column("iterations", "1", Kind::Solver, "Newton iterations").count().onlyWith("with bodies"),
  };
  return c;
}

}  // namespace

TEST(LogColumns, RowKeepsValuesBesideTheirColumns) {
  LogRow row(table());
  row.add("energy", 2.5).add("impulse", -1.0, Kind::Conserved).add("iterations", 3);
  EXPECT_EQ(row.names(), (std::vector<std::string>{"energy", "impulse", "iterations"}));
  EXPECT_EQ(row.values(), (std::vector<double>{2.5, -1.0, 3.0}));
  const auto q = row.quantities();
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[0].units, "J/m");
  EXPECT_EQ(q[0].kind, "conserved");
  EXPECT_EQ(q[0].description, "E - E_rest");
  EXPECT_EQ(q[1].kind, "conserved");  // this configuration's kind, not the declared default
  EXPECT_EQ(q[2].kind, "solver");
  EXPECT_TRUE(q[2].integer);
  EXPECT_FALSE(q[0].integer);
  EXPECT_EQ(row.time().units, "s");  // the declared time column
}

TEST(LogColumns, TimeIsDimensionlessUnlessDeclared) {
  static const std::vector<Column> none = {{"energy", "1", Kind::Conserved, "H"}};
  EXPECT_EQ(LogRow(none).time().units, "1");
  EXPECT_EQ(LogRow(none).time().kind, "coordinate");
}

TEST(LogColumns, UndeclaredColumnsAndKindsAreRefused) {
  LogRow row(table());
  EXPECT_THROW(row.add("momentum", 1.0), Error);                  // not in the table
  EXPECT_THROW(row.add("energy", 1.0, Kind::Diagnostic), Error);  // a fixed kind
  EXPECT_THROW(row.add("iterations", 1.0, Kind::Conserved), Error);
  EXPECT_EQ(row.size(), 0u);
}

TEST(LogColumns, MarkdownTable) {
  const std::string t = columnTable(table());
  EXPECT_NE(t.find("| column | kind | units | meaning |\n|---|---|---|---|\n"), std::string::npos) << t;
  EXPECT_NE(t.find("| `impulse` | conserved without bodies, else diagnostic | 1 | sum K \\|x\\|^2 |"),
            std::string::npos) << t;
  EXPECT_NE(t.find("| `iterations` | solver | 1 | Newton iterations; an integer count; only with bodies |"),
            std::string::npos) << t;
}
