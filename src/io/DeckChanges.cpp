// Deck comparison for restarts: both texts flattened to "path -> scalar" (bodies[0].shape.a),
// compared by value, each difference sorted into refused or allowed by restartMayChange; PETSc
// option strings compared option by option.
#include "io/DeckChanges.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "core/Error.hpp"
#include "core/PetscOptionText.hpp"

namespace kirchhoff::io {

namespace {

void flatten(const YAML::Node& n, const std::string& path, std::map<std::string, std::string>& out) {
  if (n.IsMap()) {
    for (const auto& kv : n) flatten(kv.second, (path.empty() ? "" : path + ".") + kv.first.as<std::string>(), out);
  } else if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i) flatten(n[i], path + "[" + std::to_string(i) + "]", out);
    if (n.size() == 0) out[path] = "[]";
  } else if (n.IsScalar()) {
    out[path] = n.Scalar();
  } else {
    out[path] = "~";
  }
}

std::map<std::string, std::string> flat(const std::string& text, const char* which) {
  std::map<std::string, std::string> out;
  try {
    flatten(YAML::Load(text), "", out);
  } catch (const YAML::Exception& e) {
    throw DeckError(std::string("the ") + which + " deck is not YAML: " + e.what());
  }
  return out;
}

bool sameValue(const std::string& a, const std::string& b) {
  if (a == b) return true;
  char* ea = nullptr;
  char* eb = nullptr;
  const double x = std::strtod(a.c_str(), &ea), y = std::strtod(b.c_str(), &eb);
  return !a.empty() && !b.empty() && *ea == '\0' && *eb == '\0' && x == y;
}

bool startsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string leaf(const std::string& key) {
  const auto dot = key.find_last_of('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

}  // namespace

std::string DeckChange::describe() const { return key + ": " + before + " -> " + after; }

bool restartMayChange(const std::string& key, const std::vector<std::string>& extra) {
  if (key == "time.steps" || key == "time.end_time" || key == "petsc_options") return true;
  for (const auto& e : extra)
    if (key == e || (!e.empty() && e.back() == '.' && startsWith(key, e))) return true;
  for (const char* p : {"output.", "sweep.", "newton."})
    if (startsWith(key, p)) return true;
  if (key.find(".newton.") != std::string::npos) return true;
  static const std::set<std::string> tolerances = {"atol", "rtol", "stol", "max_iterations"};
  return tolerances.count(leaf(key)) > 0;
}

DeckChanges compareDecks(const std::string& before, const std::string& after,
                         const std::vector<std::string>& extra) {
  const auto a = flat(before, "checkpoint's"), b = flat(after, "restart");
  std::set<std::string> keys;
  for (const auto& kv : a) keys.insert(kv.first);
  for (const auto& kv : b) keys.insert(kv.first);
  DeckChanges c;
  for (const auto& k : keys) {
    const auto ia = a.find(k), ib = b.find(k);
    const std::string va = ia == a.end() ? "(absent)" : ia->second;
    const std::string vb = ib == b.end() ? "(absent)" : ib->second;
    if (ia != a.end() && ib != b.end() && sameValue(va, vb)) continue;
    (restartMayChange(k, extra) ? c.allowed : c.refused).push_back(DeckChange{k, va, vb});
  }
  return c;
}

DeckChanges compareOptions(const std::string& before, const std::string& after,
                           const std::vector<std::string>& newLog) {
  const auto a = parsePetscOptions(before), b = parsePetscOptions(after);
  std::set<std::string> names;
  for (const auto& kv : a) names.insert(kv.first);
  for (const auto& kv : b) names.insert(kv.first);
  DeckChanges c;
  for (const auto& n : names) {
    const auto ia = a.find(n), ib = b.find(n);
    auto shown = [](auto it, auto end) { return it == end ? "(absent)" : it->second.empty() ? "(set)" : it->second; };
    const std::string va = shown(ia, a.end()), vb = shown(ib, b.end());
    if (ia != a.end() && ib != b.end() && sameValue(va, vb)) continue;
    const bool discretisation = std::find(newLog.begin(), newLog.end(), n) != newLog.end();
    (discretisation ? c.newLog : c.allowed).push_back(DeckChange{"PETSc option " + n, va, vb});
  }
  return c;
}

}  // namespace kirchhoff::io
