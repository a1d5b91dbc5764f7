// Deck schema tables and their Markdown rendering (the deck reference, docs/decks.md).
// The validator in io/Deck.cpp walks the same tables, so the docs cannot drift from the code.
#include "io/Schema.hpp"

#include <cmath>
#include <sstream>

namespace kirchhoff::io {

namespace {

std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == std::floor(v) && std::abs(v) <= kStepKeyMax)  // whole numbers in full: 2147483647
    return std::to_string(static_cast<long long>(v));
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

std::string joined(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

}  // namespace

std::string KeySpec::rangeText() const {
  const bool lo = !std::isinf(min), hi = !std::isinf(max);
  if (!lo && !hi) return "";
  if (lo && !hi) return (minExclusive ? "> " : ">= ") + number(min);
  if (!lo && hi) return (maxExclusive ? "< " : "<= ") + number(max);
  return std::string(minExclusive ? "(" : "[") + number(min) + ", " + number(max) +
         (maxExclusive ? ")" : "]");
}

std::string KeySpec::typeName() const {
  std::string r = rangeText();
  switch (type) {
    case KeyType::Real: return r.empty() ? "real" : "real " + r;
    case KeyType::Integer: return r.empty() ? "integer" : "integer " + r;
    case KeyType::Boolean: return "boolean (true/false)";
    case KeyType::String: return "string";
    case KeyType::Enum: return "one of {" + joined(choices, ", ") + "}";
    case KeyType::RealVector:
      return "list of " + std::to_string(length) + " reals" + (r.empty() ? "" : ", each " + r);
    case KeyType::RealList:
      return "list of reals" + (minItems ? " (at least " + std::to_string(minItems) + ")" : "") +
             (r.empty() ? "" : ", each " + r);
    case KeyType::Map: return "map";
    case KeyType::List:
      return "list of maps" + (minItems ? " (at least " + std::to_string(minItems) + ")" : "");
  }
  return "?";
}

KeyBuilder& KeyBuilder::def(double v) {
  k_->defaultText = number(v);
  return *this;
}
KeyBuilder& KeyBuilder::def(long v) {
  k_->defaultText = std::to_string(v);
  return *this;
}
KeyBuilder& KeyBuilder::def(bool v) {
  k_->defaultText = v ? "true" : "false";
  return *this;
}
KeyBuilder& KeyBuilder::def(const std::string& v) {
  k_->defaultText = v.empty() ? "\"\"" : v;
  return *this;
}
KeyBuilder& KeyBuilder::def(const std::vector<double>& v) {
  std::vector<std::string> s;
  for (double x : v) s.push_back(number(x));
  k_->defaultText = "[" + joined(s, ", ") + "]";
  return *this;
}

KeySpec& Section::add(const std::string& name, const std::string& doc, KeyType t) {
  auto k = std::make_shared<KeySpec>();
  k->name = name;
  k->doc = doc;
  k->type = t;
  keys_.push_back(k);
  return *k;
}

KeyBuilder Section::real(const std::string& n, const std::string& d) {
  return KeyBuilder(add(n, d, KeyType::Real));
}
KeyBuilder Section::integer(const std::string& n, const std::string& d) {
  KeySpec& k = add(n, d, KeyType::Integer);
  k.min = kIntKeyMin;
  k.max = kIntKeyMax;
  return KeyBuilder(k);
}
KeyBuilder Section::boolean(const std::string& n, const std::string& d) {
  return KeyBuilder(add(n, d, KeyType::Boolean));
}
KeyBuilder Section::string(const std::string& n, const std::string& d) {
  return KeyBuilder(add(n, d, KeyType::String));
}
KeyBuilder Section::enumeration(const std::string& n, std::vector<std::string> choices,
                                const std::string& d) {
  KeySpec& k = add(n, d, KeyType::Enum);
  k.choices = std::move(choices);
  return KeyBuilder(k);
}
KeyBuilder Section::vector(const std::string& n, int length, const std::string& d) {
  KeySpec& k = add(n, d, KeyType::RealVector);
  k.length = length;
  return KeyBuilder(k);
}
KeyBuilder Section::realList(const std::string& n, const std::string& d) {
  return KeyBuilder(add(n, d, KeyType::RealList));
}
Section& Section::map(const std::string& n, const std::string& d, bool required) {
  KeySpec& k = add(n, d, KeyType::Map);
  k.required = required;
  k.section = std::make_shared<Section>(d);
  return *k.section;
}
Section& Section::list(const std::string& n, const std::string& d, bool required, int minItems) {
  KeySpec& k = add(n, d, KeyType::List);
  k.required = required;
  k.minItems = minItems;
  k.section = std::make_shared<Section>(d);
  return *k.section;
}
Section& Section::variant(const std::string& discriminator, const std::string& choice) {
  for (auto& v : variants_)
    if (v.discriminator == discriminator && v.choice == choice) return *v.section;
  variants_.push_back({discriminator, choice, std::make_shared<Section>()});
  return *variants_.back().section;
}

const KeySpec* Section::find(const std::string& name) const {
  for (const auto& k : keys_)
    if (k->name == name) return k.get();
  return nullptr;
}

const KeySpec* Section::findIn(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& chosen) const {
  if (const KeySpec* k = find(name)) return k;
  for (const auto& v : variants_)
    for (const auto& c : chosen)
      if (c.first == v.discriminator && c.second == v.choice)
        if (const KeySpec* k = v.section->find(name)) return k;
  return nullptr;
}

std::vector<std::string> Section::namesIn(
    const std::vector<std::pair<std::string, std::string>>& chosen) const {
  std::vector<std::string> names;
  for (const auto& k : keys_) names.push_back(k->name);
  for (const auto& v : variants_)
    for (const auto& c : chosen)
      if (c.first == v.discriminator && c.second == v.choice)
        for (const auto& k : v.section->keys()) names.push_back(k->name);
  return names;
}

Schema::Schema(std::string model) : model_(std::move(model)), root_(std::make_shared<Section>()) {}

namespace {

std::string escapePipes(std::string s) {
  std::string r;
  for (char c : s) r += (c == '|') ? std::string("\\|") : std::string(1, c);
  return r;
}

void renderSection(std::ostringstream& os, const Section& s, const std::string& prefix,
                   const std::string& condition) {
  for (const auto& k : s.keys()) {
    const std::string path = prefix + k->name + (k->type == KeyType::List ? "[]" : "");
    std::string def = k->required ? "**required**" : (k->defaultText.empty() ? "-" : "`" + k->defaultText + "`");
    std::string doc = k->doc;
    if (!condition.empty()) doc = "(" + condition + ") " + doc;
    os << "| `" << path << "` | " << escapePipes(k->typeName()) << " | " << escapePipes(def) << " | "
       << escapePipes(doc) << " |\n";
    if (k->section) renderSection(os, *k->section, path + ".", condition);
  }
  for (const auto& v : s.variants())
    renderSection(os, *v.section, prefix, (condition.empty() ? "" : condition + ", ") +
                                              prefix + v.discriminator + ": " + v.choice);
}

}  // namespace

std::string Schema::markdown() const {
  std::ostringstream os;
  os << "### kirchhoff-" << model_ << "\n\n"
     << "| key | type | default | meaning |\n|---|---|---|---|\n";
  renderSection(os, *root_, "", "");
  return os.str();
}

}  // namespace kirchhoff::io
