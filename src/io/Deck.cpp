// Strict deck validation against the schema tables and typed, default-filling access.
// Every failure is one DeckError "file:line:col: key: what was expected, what was found".
#include "io/Deck.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>

#include "core/Hash.hpp"
#include "io/TextFile.hpp"

namespace kirchhoff::io {

namespace {

// "deck.yaml:12:5"; a sweep case's deck is named "deck.yaml [key=value]" (Deck::withOverride),
// and the position goes with the file name: "deck.yaml:12:5 [key=value]".
std::string location(const std::string& file, const YAML::Mark& m) {
  if (m.line < 0) return file;
  const std::size_t c = !file.empty() && file.back() == ']' ? file.find(" [") : std::string::npos;
  std::ostringstream os;
  os << file.substr(0, c) << ":" << m.line + 1 << ":" << m.column + 1;
  if (c != std::string::npos) os << file.substr(c);
  return os.str();
}

[[noreturn]] void raise(const std::string& file, const YAML::Node& at, const std::string& key,
                        const std::string& msg) {
  throw DeckError(location(file, at.Mark()) + ": " + (key.empty() ? "" : "key '" + key + "': ") + msg);
}

std::string shown(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a map";
  return "nothing";
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

/// Levenshtein distance, for "did you mean" on unknown keys.
std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

bool parseReal(const YAML::Node& n, double& v) {
  if (!n.IsScalar()) return false;
  const std::string& s = n.Scalar();
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0' && std::isfinite(v);
}

enum class IntegerParse { Ok, NotAnInteger, TooLarge };

/// Decimal digits only (a sign allowed); more digits than a long holds is TooLarge, not a wrap.
IntegerParse parseInteger(const YAML::Node& n, long& v) {
  if (!n.IsScalar()) return IntegerParse::NotAnInteger;
  const std::string& s = n.Scalar();
  if (s.empty()) return IntegerParse::NotAnInteger;
  char* end = nullptr;
  errno = 0;
  v = std::strtol(s.c_str(), &end, 10);
  if (!end || end == s.c_str() || *end != '\0') return IntegerParse::NotAnInteger;
  return errno == ERANGE ? IntegerParse::TooLarge : IntegerParse::Ok;
}

bool parseBoolean(const YAML::Node& n, bool& v) {
  if (!n.IsScalar()) return false;
  const std::string& s = n.Scalar();
  if (s == "true" || s == "True" || s == "yes" || s == "on") return v = true, true;
  if (s == "false" || s == "False" || s == "no" || s == "off") return v = false, true;
  return false;
}

bool inRange(const KeySpec& k, double v) {
  if (k.minExclusive ? !(v > k.min) : !(v >= k.min)) return false;
  if (k.maxExclusive ? !(v < k.max) : !(v <= k.max)) return false;
  return true;
}

/// Integers are compared exactly: beyond 2^53 a double rounds (9007199254740993 -> 2^53, within
/// time.steps' range), and no integer key allows more than 2^53.
bool inIntegerRange(const KeySpec& k, long v) {
  constexpr long kExact = 1L << 53;
  return v >= -kExact && v <= kExact && inRange(k, static_cast<double>(v));
}

void checkReal(const YAML::Node& n, const KeySpec& k, const std::string& key, const std::string& file) {
  double v;
  if (!parseReal(n, v)) raise(file, n, key, "expected a " + k.typeName() + ", got " + shown(n));
  if (!inRange(k, v)) raise(file, n, key, "value " + n.Scalar() + " out of range, expected " + k.typeName());
}

std::vector<std::pair<std::string, std::string>> discriminators(const YAML::Node& node,
                                                                const Section& s,
                                                                const std::string& path,
                                                                const std::string& file);

void validateValue(const YAML::Node& n, const KeySpec& k, const std::string& key,
                   const std::string& file) {
  switch (k.type) {
    case KeyType::Real: checkReal(n, k, key, file); break;
    case KeyType::Integer: {
      long v;
      const IntegerParse p = parseInteger(n, v);
      if (p == IntegerParse::NotAnInteger)
        raise(file, n, key, "expected an " + k.typeName() + ", got " + shown(n));
      if (p == IntegerParse::TooLarge || !inIntegerRange(k, v))
        raise(file, n, key, "value " + n.Scalar() + " out of range, expected " + k.typeName());
      break;
    }
    case KeyType::Boolean: {
      bool v;
      if (!parseBoolean(n, v)) raise(file, n, key, "expected true or false, got " + shown(n));
      break;
    }
    case KeyType::String:
      if (!n.IsScalar()) raise(file, n, key, "expected a string, got " + shown(n));
      break;
    case KeyType::Enum: {
      if (!n.IsScalar() || std::find(k.choices.begin(), k.choices.end(), n.Scalar()) == k.choices.end())
        raise(file, n, key, "unknown choice " + shown(n) + ", expected " + k.typeName());
      break;
    }
    case KeyType::RealVector:
    case KeyType::RealList: {
      if (!n.IsSequence()) raise(file, n, key, "expected a " + k.typeName() + ", got " + shown(n));
      if (k.type == KeyType::RealVector && static_cast<int>(n.size()) != k.length)
        raise(file, n, key, "expected a " + k.typeName() + ", got " + std::to_string(n.size()) + " values");
      if (static_cast<int>(n.size()) < k.minItems)
        raise(file, n, key, "expected a " + k.typeName() + ", got " + std::to_string(n.size()) + " values");
      for (std::size_t i = 0; i < n.size(); ++i) {
        double v;
        if (!parseReal(n[i], v))
          raise(file, n[i], key + "[" + std::to_string(i) + "]", "expected a real number, got " + shown(n[i]));
        if (!inRange(k, v))
          raise(file, n[i], key + "[" + std::to_string(i) + "]",
                "value " + n[i].Scalar() + " out of range, expected " + k.rangeText());
      }
      break;
    }
    case KeyType::Map:
      if (!n.IsMap() && !n.IsNull()) raise(file, n, key, "expected a map of keys, got " + shown(n));
      validate(n, *k.section, key, file);
      break;
    case KeyType::List: {
      if (!n.IsSequence()) raise(file, n, key, "expected a " + k.typeName() + ", got " + shown(n));
      if (static_cast<int>(n.size()) < k.minItems)
        raise(file, n, key, "expected a " + k.typeName() + ", got " + std::to_string(n.size()) + " items");
      for (std::size_t i = 0; i < n.size(); ++i) {
        const std::string item = key + "[" + std::to_string(i) + "]";
        if (!n[i].IsMap()) raise(file, n[i], item, "expected a map of keys, got " + shown(n[i]));
        validate(n[i], *k.section, item, file);
      }
      break;
    }
  }
}

std::vector<std::pair<std::string, std::string>> discriminators(const YAML::Node& node,
                                                                const Section& s,
                                                                const std::string& path,
                                                                const std::string& file) {
  std::vector<std::pair<std::string, std::string>> chosen;
  for (const auto& v : s.variants()) {
    bool seen = false;
    for (const auto& c : chosen) seen = seen || c.first == v.discriminator;
    if (seen) continue;
    const KeySpec* k = s.find(v.discriminator);
    if (!k) continue;
    YAML::Node val = node.IsMap() ? node[v.discriminator] : YAML::Node();
    std::string value = k->defaultText;
    if (val.IsDefined() && !val.IsNull()) {
      validateValue(val, *k, join(path, v.discriminator), file);
      value = val.Scalar();
    }
    if (!value.empty()) chosen.emplace_back(v.discriminator, value);
  }
  return chosen;
}

}  // namespace

void validateKeyValue(const YAML::Node& value, const KeySpec& spec, const std::string& key,
                      const std::string& where) {
  validateValue(value, spec, key, where);
}

std::size_t keyEditDistance(const std::string& a, const std::string& b) { return editDistance(a, b); }

void validate(const YAML::Node& node, const Section& section, const std::string& path,
              const std::string& file) {
  if (!node.IsMap() && !node.IsNull() && node.IsDefined())
    raise(file, node, path, "expected a map of keys, got " + shown(node));
  const auto chosen = discriminators(node, section, path, file);
  const auto allowed = section.namesIn(chosen);
  std::set<std::string> seen;
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node keyNode = it->first;  // a copy: it-> returns a temporary proxy
      if (!keyNode.IsScalar()) raise(file, keyNode, path, "keys must be plain names");
      const std::string name = keyNode.Scalar();
      const std::string key = join(path, name);
      if (!seen.insert(name).second) raise(file, keyNode, key, "duplicate key");
      const KeySpec* k = section.findIn(name, chosen);
      if (!k) {
        std::string msg = "unknown key";
        std::string best;
        std::size_t bestD = 3;
        for (const auto& a : allowed)
          if (std::size_t d = editDistance(name, a); d < bestD) bestD = d, best = a;
        if (!best.empty()) msg += " (did you mean '" + best + "'?)";
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        raise(file, keyNode, key, msg + "; allowed here: " + list);
      }
      if (it->second.IsNull() && k->type != KeyType::Map)
        raise(file, keyNode, key, "no value given, expected a " + k->typeName());
      validateValue(it->second, *k, key, file);
    }
  }
  auto requireAll = [&](const Section& s) {
    for (const auto& k : s.keys())
      if (k->required && !seen.count(k->name))
        raise(file, node, join(path, k->name), "missing required key, expected a " + k->typeName() +
                                                   (k->doc.empty() ? "" : " (" + k->doc + ")"));
  };
  requireAll(section);
  for (const auto& v : section.variants())
    for (const auto& c : chosen)
      if (c.first == v.discriminator && c.second == v.choice) requireAll(*v.section);
}

// ---------------------------------------------------------------------------------------------

DeckNode::DeckNode(YAML::Node node, const Section* section, std::string path,
                   const std::string* file, std::vector<std::pair<std::string, std::string>> chosen)
    : node_(std::move(node)), section_(section), path_(std::move(path)), file_(file),
      chosen_(std::move(chosen)) {}

const KeySpec& DeckNode::spec(const std::string& key) const {
  const KeySpec* k = section_->findIn(key, chosen_);
  if (!k) throw DeckError("internal: key '" + keyPath(key) + "' is not in the schema");
  return *k;
}

bool DeckNode::has(const std::string& key) const {
  spec(key);
  return node_.IsMap() && node_[key].IsDefined() && !node_[key].IsNull();
}

YAML::Node DeckNode::valueOrDefault(const std::string& key) const {
  const KeySpec& k = spec(key);
  if (has(key)) return node_[key];
  if (k.defaultText.empty())
    throw DeckError(where() + ": key '" + keyPath(key) + "': missing, expected a " + k.typeName());
  return YAML::Load(k.defaultText);
}

std::string DeckNode::keyPath(const std::string& key) const { return join(path_, key); }

std::string DeckNode::where(const std::string& key) const {
  // Initialised, never assigned: yaml-cpp's Node::operator= overwrites the node it refers to
  // (here the deck's own map, which then lost its keys: a later read said 'time.dt' missing).
  const YAML::Node n = !key.empty() && has(key) ? node_[key] : node_;
  return location(*file_, n.Mark());
}

void DeckNode::fail(const std::string& key, const std::string& message) const {
  throw DeckError(where(key) + ": " + (key.empty() ? (path_.empty() ? "" : "'" + path_ + "': ")
                                                   : "key '" + keyPath(key) + "': ") + message);
}

double DeckNode::real(const std::string& key) const {
  double v = 0;
  const YAML::Node n = valueOrDefault(key);
  if (!parseReal(n, v)) fail(key, "expected a real number");
  return v;
}

long DeckNode::integer(const std::string& key) const {
  long v = 0;
  const YAML::Node n = valueOrDefault(key);
  const KeySpec& k = spec(key);
  if (parseInteger(n, v) != IntegerParse::Ok || !inIntegerRange(k, v))
    fail(key, "expected an " + k.typeName());
  return v;
}

bool DeckNode::boolean(const std::string& key) const {
  bool v = false;
  const YAML::Node n = valueOrDefault(key);
  if (!parseBoolean(n, v)) fail(key, "expected true or false");
  return v;
}

std::string DeckNode::string(const std::string& key) const {
  const YAML::Node n = valueOrDefault(key);
  return n.IsScalar() ? n.Scalar() : std::string();
}

std::vector<double> DeckNode::vector(const std::string& key) const {
  const YAML::Node n = valueOrDefault(key);
  std::vector<double> v;
  for (std::size_t i = 0; i < n.size(); ++i) {
    double x = 0;
    if (!parseReal(n[i], x)) fail(key, "expected a list of reals");
    v.push_back(x);
  }
  return v;
}

DeckNode DeckNode::map(const std::string& key) const {
  const KeySpec& k = spec(key);
  YAML::Node n = has(key) ? node_[key] : YAML::Node(YAML::NodeType::Map);
  auto chosen = discriminators(n, *k.section, keyPath(key), *file_);
  return DeckNode(n, k.section.get(), keyPath(key), file_, chosen);
}

std::vector<DeckNode> DeckNode::list(const std::string& key) const {
  const KeySpec& k = spec(key);
  std::vector<DeckNode> out;
  if (!has(key)) return out;
  const YAML::Node n = node_[key];
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string item = keyPath(key) + "[" + std::to_string(i) + "]";
    out.emplace_back(n[i], k.section.get(), item, file_, discriminators(n[i], *k.section, item, *file_));
  }
  return out;
}

namespace {

/// Records where a document's first value starts (a null document counts as empty).
class FirstContent : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> at;
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { note(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& m) {
    if (!at) at = m;
  }
};

/// Where a second, non-empty YAML document of `text` starts, if there is one. Two parser calls at
/// most, so malformed input cannot loop.
std::optional<YAML::Mark> secondDocumentContent(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  FirstContent first, second;
  if (!parser.HandleNextDocument(first)) return std::nullopt;
  if (!parser.HandleNextDocument(second)) return std::nullopt;
  return second.at;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

Deck::Deck(const std::string& text, const std::string& file, const Schema& schema)
    : text_(text), file_(file), schema_(&schema), source_(text) {
  try {
    root_.reset(YAML::Load(text_));
    // A second document ("---" then keys) would be ignored silently: refuse it. Not YAML::LoadAll:
    // yaml-cpp 0.7's LoadAll loops forever on some malformed input (", {{;", found by fuzzing).
    if (const auto second = secondDocumentContent(text_))
      throw DeckError(location(file_, *second) + ": a second YAML document (after '---'); a deck "
                      "is one document: remove the '---' line or the keys after it");
  } catch (const YAML::ParserException& e) {
    throw DeckError(location(file_, e.mark) + ": YAML syntax error: " + e.msg);
  }
  check();
}

Deck::Deck(YAML::Node root, std::string text, std::string file, const Schema& schema,
           std::string source, std::vector<DeckEdit> edits)
    : text_(std::move(text)),
      file_(std::move(file)),
      schema_(&schema),
      source_(std::move(source)),
      edits_(std::move(edits)),
      root_(std::move(root)) {
  check();
}

void Deck::check() const {
  if (!root_.IsMap()) throw DeckError(file_ + ": a deck must be a map of keys (model: ..., time: ...)");
  // The model first: another driver's deck would otherwise fail on its first model-specific key.
  const YAML::Node model = root_["model"];
  if (model.IsDefined() && model.IsScalar() && model.Scalar() != schema_->model())
    raise(file_, model, "model",
          "this deck is for kirchhoff-" + model.Scalar() + " (model: " + model.Scalar() +
              "), not kirchhoff-" + schema_->model());
  validate(root_, schema_->root(), "", file_);
}

YAML::Node Deck::parsed() const {
  YAML::Node root = YAML::Load(source_);  // parsed before (the constructor), so it parses
  for (const auto& e : edits_) e(root, nullptr);
  return root;
}

Deck::Deck(const Deck& other)
    : text_(other.text_),
      file_(other.file_),
      schema_(other.schema_),
      source_(other.source_),
      edits_(other.edits_),
      root_(other.parsed()) {}

Deck& Deck::operator=(const Deck& other) {
  if (this != &other) {
    text_ = other.text_;
    file_ = other.file_;
    schema_ = other.schema_;
    source_ = other.source_;
    edits_ = other.edits_;
    root_.reset(other.parsed());  // rebind; operator= would write into the old tree
  }
  return *this;
}

Deck& Deck::operator=(Deck&& other) noexcept {
  if (this != &other) {
    text_ = std::move(other.text_);
    file_ = std::move(other.file_);
    schema_ = other.schema_;
    source_ = std::move(other.source_);
    edits_ = std::move(other.edits_);
    root_.reset(other.root_);
  }
  return *this;
}

Deck Deck::edited(const std::vector<DeckEdit>& edits, const std::string& file,
                  std::vector<std::string>* notes) const {
  YAML::Node root = parsed();
  for (const auto& e : edits) e(root, notes);
  std::vector<DeckEdit> all = edits_;
  all.insert(all.end(), edits.begin(), edits.end());
  YAML::Emitter out;
  out << root;
  return Deck(root, std::string(out.c_str()) + "\n", file, *schema_, source_, std::move(all));
}

Deck Deck::fromFile(const std::string& file, const Schema& schema) {
  return Deck(readTextFile(file, "the deck"), file, schema);
}

DeckNode Deck::root() const {
  return DeckNode(root_, &schema_->root(), "", &file_, discriminators(root_, schema_->root(), "", file_));
}

std::uint64_t Deck::hash() const { return fnv1a(text_); }

std::string Deck::locate(const std::vector<std::string>& keyPaths) const {
  for (const auto& path : keyPaths) {
    YAML::Node n = root_;  // a handle; reset() rebinds it, const [] never inserts into the deck
    std::stringstream ss(path);
    std::string part;
    bool found = true;
    while (found && std::getline(ss, part, '.')) {
      const YAML::Node& c = n;
      found = c.IsMap() && c[part].IsDefined();
      if (found) n.reset(c[part]);
    }
    if (found && !n.IsNull()) return location(file_, n.Mark()) + ": key '" + path + "'";
  }
  return file_;
}

std::string Deck::petscOptions() const {
  const YAML::Node n = root_["petsc_options"];
  return n.IsDefined() && n.IsScalar() ? n.Scalar() : std::string();
}

Deck Deck::withOverride(const std::string& path, const YAML::Node& value) const {
  // Walk "a.b[2].c": names separated by '.', list indices in brackets.
  std::vector<std::pair<std::string, int>> parts;
  std::stringstream ss(path);
  std::string tok;
  while (std::getline(ss, tok, '.')) {
    int index = -1;
    if (auto b = tok.find('['); b != std::string::npos) {
      const std::string digits = tok.size() > b + 2 ? tok.substr(b + 1, tok.size() - b - 2) : "";
      if (tok.back() != ']' || digits.empty() || digits.size() > 9 ||
          digits.find_first_not_of("0123456789") != std::string::npos)
        throw DeckError(file_ + ": sweep parameter '" + path + "': '" + tok +
                        "' is not a key or key[index] (index a whole number)");
      index = std::stoi(digits);
      tok = tok.substr(0, b);
    }
    parts.emplace_back(tok, index);
  }
  if (parts.empty()) throw DeckError(file_ + ": sweep parameter path is empty");
  const YAML::Node v = YAML::Clone(value);
  const DeckEdit set = [parts, path, v, file = file_](YAML::Node& root, std::vector<std::string>*) {
    YAML::Node cur = root;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const bool last = i + 1 == parts.size();
      if (!cur.IsMap()) throw DeckError(file + ": sweep parameter '" + path + "' does not name a deck key");
      if (last && parts[i].second < 0) {
        cur[parts[i].first] = YAML::Clone(v);  // each parse its own value node
        break;
      }
      YAML::Node next = cur[parts[i].first];
      if (parts[i].second >= 0) {
        if (!next.IsSequence() || parts[i].second >= static_cast<int>(next.size()))
          throw DeckError(file + ": sweep parameter '" + path + "': no item [" +
                          std::to_string(parts[i].second) + "]");
        if (last) {
          next[parts[i].second] = YAML::Clone(v);
          break;
        }
        next.reset(next[parts[i].second]);
      } else if (!next.IsDefined()) {
        cur[parts[i].first] = YAML::Node(YAML::NodeType::Map);
        next.reset(cur[parts[i].first]);
      }
      cur.reset(next);  // rebind; operator= would overwrite the node cur refers to
    }
    root.remove("sweep");
  };
  return edited({set}, file_ + " [" + path + "=" + YAML::Dump(value) + "]");
}

}  // namespace kirchhoff::io
