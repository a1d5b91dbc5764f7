// applyOverrides: walks "a.b[i].c" through the schema and a fresh parse of the deck text (so every
// untouched key keeps its file position in later messages), validates the new value, and handles
// variants: keys of the old choice are dropped (with a note), required keys of the new one named.
#include "io/DeckOverrides.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace kirchhoff::io {

namespace {

struct Part {
  std::string name;
  int index = -1;  ///< list item, or -1
};

std::vector<Part> splitPath(const std::string& path, const std::string& label) {
  std::vector<Part> parts;
  std::stringstream ss(path);
  std::string tok;
  while (std::getline(ss, tok, '.')) {
    Part p;
    if (const auto b = tok.find('['); b != std::string::npos) {
      const std::string digits = tok.size() > b + 2 ? tok.substr(b + 1, tok.size() - b - 2) : "";
      if (tok.back() != ']' || digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        throw DeckError(label + ": '" + tok + "' is not a key or key[index] (index a whole number)");
      p.index = std::stoi(digits);
      tok = tok.substr(0, b);
    }
    if (tok.empty()) throw DeckError(label + ": empty key name in '" + path + "'");
    p.name = tok;
    parts.push_back(p);
  }
  if (parts.empty()) throw DeckError(label + ": no key given");
  return parts;
}

using Chosen = std::vector<std::pair<std::string, std::string>>;

/// The values of a map's variant discriminators (the deck's, else the defaults).
Chosen chosenIn(const YAML::Node& node, const Section& s) {
  Chosen c;
  for (const auto& v : s.variants()) {
    bool seen = false;
    for (const auto& x : c) seen = seen || x.first == v.discriminator;
    const KeySpec* k = s.find(v.discriminator);
    if (seen || !k) continue;
    const YAML::Node val = node.IsMap() ? node[v.discriminator] : YAML::Node();
    const std::string value = val.IsDefined() && val.IsScalar() ? val.Scalar() : k->defaultText;
    if (!value.empty()) c.emplace_back(v.discriminator, value);
  }
  return c;
}

/// Every key path of a section ("a.b", list items as "a[0].b"), variants included.
void allPaths(const Section& s, const std::string& prefix, std::set<std::string>& out) {
  auto add = [&](const KeySpec& k) {
    const std::string p = prefix + k.name;
    out.insert(p);
    if (k.section && k.type == KeyType::Map) allPaths(*k.section, p + ".", out);
    if (k.section && k.type == KeyType::List) allPaths(*k.section, p + "[0].", out);
  };
  for (const auto& k : s.keys()) add(*k);
  for (const auto& v : s.variants())
    for (const auto& k : v.section->keys()) add(*k);
}

std::string stripIndices(const std::string& p) {
  std::string o;
  bool in = false;
  for (char c : p) {
    if (c == '[') in = true, o += "[0";
    else if (c == ']') in = false, o += ']';
    else if (!in) o += c;
  }
  return o;
}

/// "did you mean" for an unknown key: a full path ending in what was given
/// ("scheme.method" -> "rayleigh.scheme.method"), else the nearest name here, else the nearest path.
std::string suggestion(const Schema& schema, const YAML::Node& root, const std::string& path,
                       const std::string& name, const std::vector<std::string>& here,
                       const std::string& parent) {
  std::set<std::string> all;
  allPaths(schema.root(), "", all);
  const std::string want = stripIndices(path);
  std::vector<std::string> ends, present;
  for (const auto& p : all)
    if (p.size() > want.size() && p.compare(p.size() - want.size(), want.size(), want) == 0 &&
        p[p.size() - want.size() - 1] == '.')
      ends.push_back(p);
  for (const auto& p : ends)
    if (root[p.substr(0, p.find_first_of(".["))].IsDefined()) present.push_back(p);
  const auto& pick = present.empty() ? ends : present;
  if (!pick.empty()) {
    std::string s;
    for (std::size_t i = 0; i < pick.size(); ++i)
      s += (i ? (i + 1 == pick.size() ? "' or '" : "', '") : "") + pick[i];
    return " (did you mean '" + s + "'?)";
  }
  std::string best;
  std::size_t bestD = 3;
  for (const auto& a : here)
    if (const std::size_t d = keyEditDistance(name, a); d < bestD) bestD = d, best = parent + a;
  if (best.empty())
    for (const auto& p : all)
      if (const std::size_t d = keyEditDistance(want, p); d < bestD) bestD = d, best = p;
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

YAML::Node parseValue(const std::string& value, const std::string& label) {
  if (value.empty() || value.front() != '[') return YAML::Node(value);
  try {
    return YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw DeckError(label + ": the list '" + value + "' is not valid YAML: " + e.msg);
  }
}

std::string choiceOf(const Chosen& c, const std::string& disc) {
  for (const auto& x : c)
    if (x.first == disc) return x.second;
  return "";
}

/// A discriminator changed: drop the keys only the old choice allowed; name the required keys of
/// the new choice that the map lacks.
void switchVariant(YAML::Node map, const Section& s, const std::string& disc, const std::string& value,
                   const std::string& parent, const std::string& label, std::vector<std::string>& notes) {
  const Chosen before = chosenIn(map, s);
  Chosen after = before;
  for (auto& c : after)
    if (c.first == disc) c.second = value;
  const auto oldKeys = s.namesIn(before), newKeys = s.namesIn(after);
  std::vector<std::string> dropped;
  for (const auto& k : oldKeys)
    if (std::find(newKeys.begin(), newKeys.end(), k) == newKeys.end() && map[k].IsDefined()) dropped.push_back(k);
  std::string list;
  for (const auto& k : dropped) {
    map.remove(k);
    list += (list.empty() ? "" : ", ") + parent + k;
  }
  if (!dropped.empty())
    notes.push_back(label + ": removed " + list + (dropped.size() == 1 ? " (it applies" : " (they apply") +
                    " only to " + disc + " " + choiceOf(before, disc) + ")");
  for (const auto& v : s.variants()) {
    if (v.discriminator != disc || v.choice != value) continue;
    for (const auto& k : v.section->keys())
      if (k->required && !map[k->name].IsDefined())
        throw DeckError(label + ": " + disc + " " + value + " needs key '" + parent + k->name + "' (" +
                        k->typeName() + "): add --set " + parent + k->name + "=VALUE");
  }
}

void applyOne(YAML::Node root, const Schema& schema, const std::string& arg,
              std::vector<std::string>& notes) {
  const std::string label = "--set " + arg;
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("--set needs key=value (e.g. --set time.dt=0.05), got '" + arg + "'");
  const std::string path = arg.substr(0, eq), value = arg.substr(eq + 1);
  const auto parts = splitPath(path, label);
  YAML::Node cur = root;
  const Section* section = &schema.root();
  std::string done;  // path walked so far, with a trailing '.'
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    const bool last = i + 1 == parts.size();
    const std::string key = done + p.name;
    const Chosen chosen = chosenIn(cur, *section);
    const KeySpec* k = section->findIn(p.name, chosen);
    if (!k) {
      const auto here = section->namesIn(chosen);
      std::string list;
      for (const auto& a : here) list += (list.empty() ? "" : ", ") + a;
      throw DeckError(label + ": key '" + key + "': unknown key" +
                      suggestion(schema, root, path, p.name, here, done) + "; allowed here: " + list);
    }
    if (p.index >= 0) {
      if (k->type != KeyType::List) throw DeckError(label + ": key '" + key + "' is not a list of maps");
      YAML::Node seq = cur[p.name];
      const int n = seq.IsSequence() ? static_cast<int>(seq.size()) : 0;
      if (p.index >= n)
        throw DeckError(label + ": key '" + key + "': no item [" + std::to_string(p.index) + "] (the deck has " +
                        std::to_string(n) + ")");
      if (last) throw DeckError(label + ": '" + key + "[" + std::to_string(p.index) + "]' is a map: set one of its keys");
      cur.reset(seq[p.index]);
      section = k->section.get();
      done = key + "[" + std::to_string(p.index) + "].";
      continue;
    }
    if (!last) {
      if (k->type == KeyType::List)
        throw DeckError(label + ": '" + key + "' is a list: give an item, e.g. " + key + "[0]." + parts[i + 1].name);
      if (k->type != KeyType::Map) throw DeckError(label + ": '" + key + "' is a " + k->typeName() + ", not a map");
      if (!cur[p.name].IsDefined() || cur[p.name].IsNull()) cur[p.name] = YAML::Node(YAML::NodeType::Map);
      YAML::Node next = cur[p.name];
      cur.reset(next);
      section = k->section.get();
      done = key + ".";
      continue;
    }
    if (k->type == KeyType::Map || k->type == KeyType::List)
      throw DeckError(label + ": '" + key + "' is a " + k->typeName() + ": set one of its keys");
    const YAML::Node v = parseValue(value, label);
    validateKeyValue(v, *k, key, label);
    bool isDiscriminator = false;
    for (const auto& var : section->variants()) isDiscriminator = isDiscriminator || var.discriminator == p.name;
    if (isDiscriminator) switchVariant(cur, *section, p.name, value, done, label, notes);
    cur[p.name] = v;
  }
}

}  // namespace

Deck applyOverrides(Deck deck, const std::vector<std::string>& sets,
                    std::vector<std::string>& notes) {
  if (sets.empty()) return deck;
  std::vector<DeckEdit> edits;
  const Schema* schema = &deck.schema();
  for (const auto& s : sets)
    edits.emplace_back([schema, s](YAML::Node& root, std::vector<std::string>* notes) {
      std::vector<std::string> replayed;  // a replay's notes were given the first time
      applyOne(root, *schema, s, notes ? *notes : replayed);
    });
  return deck.edited(edits, deck.file(), &notes);
}

}  // namespace kirchhoff::io
