// The invariant log's columns (LogColumns.hpp): lookup of a declared column, the row's views for
// the run loop and io, and the Markdown table of docs/output.md "The invariant log".
#include "core/LogColumns.hpp"

#include <utility>

#include "core/Error.hpp"

namespace kirchhoff {

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Conserved: return "conserved";
    case Kind::Diagnostic: return "diagnostic";
    case Kind::Solver: return "solver";
    case Kind::Coordinate: return "coordinate";
  }
  return "diagnostic";
}

Column Column::count() const {
  Column c = *this;
  c.integer = true;
  return c;
}

Column Column::onlyWith(std::string which) const {
  Column c = *this;
  c.only = std::move(which);
  return c;
}

Column Column::conservedWhen(std::string which) const {
  Column c = *this;
  c.conserved = std::move(which);
  return c;
}

const Column& LogRow::declared(const std::string& name) const {
  for (const auto& c : *declared_)
    if (c.name == name) return c;
  throw Error("internal error: the model logs a column '" + name + "' it does not declare", kExitNumerical);
}

LogRow& LogRow::add(const std::string& name, double value) {
  const Column& c = declared(name);
  entries_.push_back(Entry{&c, c.kind, value});
  return *this;
}

LogRow& LogRow::add(const std::string& name, double value, Kind kind) {
  const Column& c = declared(name);
  if (kind != c.kind && !(kind == Kind::Conserved && !c.conserved.empty()))
    throw Error("internal error: the model logs column '" + name + "' as " + kindName(kind) +
                    ", which its declaration does not allow", kExitNumerical);
  entries_.push_back(Entry{&c, kind, value});
  return *this;
}

std::vector<std::string> LogRow::names() const {
  std::vector<std::string> n;
  n.reserve(entries_.size());
  for (const auto& e : entries_) n.push_back(e.column->name);
  return n;
}

std::vector<double> LogRow::values() const {
  std::vector<double> v;
  v.reserve(entries_.size());
  for (const auto& e : entries_) v.push_back(e.value);
  return v;
}

std::vector<Quantity> LogRow::quantities() const {
  std::vector<Quantity> q;
  q.reserve(entries_.size());
  for (const auto& e : entries_) q.push_back(e.column->quantity(e.kind));
  return q;
}

Quantity LogRow::time() const {
  for (const auto& c : *declared_)
    if (c.name == "time") return c.quantity(Kind::Coordinate);
  return timeQuantity();
}

namespace {

/// A table cell: '|' escaped.
std::string cell(const std::string& s) {
  std::string o;
  for (const char ch : s) o += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return o;
}

}  // namespace

std::string columnTable(const std::vector<Column>& columns) {
  std::string t = "| column | kind | units | meaning |\n|---|---|---|---|\n";
  for (const auto& c : columns) {
    std::string kind = kindName(c.kind);
    if (!c.conserved.empty()) kind = "conserved " + c.conserved + ", else " + kind;
    std::string meaning = c.description;
    if (c.integer) meaning += "; an integer count";
    if (!c.only.empty()) meaning += "; only " + c.only;
    t += "| `" + c.name + "` | " + kind + " | " + cell(c.units) + " | " + cell(meaning) + " |\n";
  }
  return t;
}

}  // namespace kirchhoff
