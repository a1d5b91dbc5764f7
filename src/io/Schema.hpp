// The deck schema: one table of keys (type, default, range, choices, meaning) per model.
// The validator (io/Deck) and the generated deck reference (docs/decks.md) both read this table.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kirchhoff::io {

enum class KeyType { Real, Integer, Boolean, String, Enum, RealVector, RealList, Map, List };

/// Default range of an integer key: the values an `int` holds, so the cast after reading cannot
/// wrap. Keys with a smaller natural range (sizes that allocate) declare their own bound.
inline constexpr double kIntKeyMin = -2147483648.0;
inline constexpr double kIntKeyMax = 2147483647.0;
/// Largest step count: 2^53, the last integer a double (time = step dt) represents exactly.
inline constexpr double kStepKeyMax = 9007199254740992.0;

class Section;

/// One allowed key of a YAML map.
struct KeySpec {
  std::string name;
  std::string doc;
  KeyType type = KeyType::Real;
  bool required = false;
  std::string defaultText;  ///< YAML text of the default ("" = no default)
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool minExclusive = false;
  bool maxExclusive = false;
  std::vector<std::string> choices;  ///< Enum
  int length = 0;                    ///< RealVector: fixed length; RealList: minimum length
  std::shared_ptr<Section> section;  ///< Map: its keys; List: the keys of each element (a map)
  int minItems = 0;                  ///< List / RealList: minimum number of items

  std::string typeName() const;   ///< "real", "integer > 0", "one of {a, b}", ...
  std::string rangeText() const;  ///< "(0, inf)", "" if unbounded
};

/// Fluent setter for the key just declared.
class KeyBuilder {
 public:
  explicit KeyBuilder(KeySpec& k) : k_(&k) {}
  KeyBuilder& required() { k_->required = true; return *this; }
  KeyBuilder& def(double v);
  KeyBuilder& def(long v);
  KeyBuilder& def(int v) { return def(static_cast<long>(v)); }
  KeyBuilder& def(bool v);
  KeyBuilder& def(const char* v) { return def(std::string(v)); }
  KeyBuilder& def(const std::string& v);
  KeyBuilder& def(const std::vector<double>& v);
  KeyBuilder& min(double v) { k_->min = v; k_->minExclusive = false; return *this; }
  KeyBuilder& max(double v) { k_->max = v; k_->maxExclusive = false; return *this; }
  KeyBuilder& above(double v) { k_->min = v; k_->minExclusive = true; return *this; }
  KeyBuilder& below(double v) { k_->max = v; k_->maxExclusive = true; return *this; }
  KeyBuilder& positive() { return above(0.0); }
  KeyBuilder& nonnegative() { return min(0.0); }
  KeyBuilder& minItems(int n) { k_->minItems = n; return *this; }

 private:
  KeySpec* k_;
};

/// The keys allowed in one YAML map. A map may also carry variants: an Enum key (the
/// discriminator) whose value selects further allowed keys, e.g. `type: circle` -> radius, edges.
class Section {
 public:
  Section() = default;
  explicit Section(std::string doc) : doc_(std::move(doc)) {}

  KeyBuilder real(const std::string& name, const std::string& doc);
  KeyBuilder integer(const std::string& name, const std::string& doc);
  KeyBuilder boolean(const std::string& name, const std::string& doc);
  KeyBuilder string(const std::string& name, const std::string& doc);
  KeyBuilder enumeration(const std::string& name, std::vector<std::string> choices,
                         const std::string& doc);
  /// A fixed-length list of reals, e.g. a point [x, y].
  KeyBuilder vector(const std::string& name, int length, const std::string& doc);
  /// A list of reals of any length (at least minItems).
  KeyBuilder realList(const std::string& name, const std::string& doc);
  /// A nested map; returns its section.
  Section& map(const std::string& name, const std::string& doc, bool required = false);
  /// A list of maps; returns the section every element follows.
  Section& list(const std::string& name, const std::string& doc, bool required = false,
                int minItems = 0);
  /// Keys allowed only when the Enum key `discriminator` (declared in this section) equals `choice`.
  Section& variant(const std::string& discriminator, const std::string& choice);

  const std::vector<std::shared_ptr<KeySpec>>& keys() const { return keys_; }
  const KeySpec* find(const std::string& name) const;
  const std::string& doc() const { return doc_; }
  struct Variant {
    std::string discriminator, choice;
    std::shared_ptr<Section> section;
  };
  const std::vector<Variant>& variants() const { return variants_; }
  /// Keys valid in a map whose discriminators have the given values (base keys + variants).
  const KeySpec* findIn(const std::string& name,
                        const std::vector<std::pair<std::string, std::string>>& chosen) const;
  /// The names of those keys, base keys first.
  std::vector<std::string> namesIn(
      const std::vector<std::pair<std::string, std::string>>& chosen) const;

 private:
  KeySpec& add(const std::string& name, const std::string& doc, KeyType t);
  std::string doc_;
  std::vector<std::shared_ptr<KeySpec>> keys_;
  std::vector<Variant> variants_;
};

/// The schema of one driver's decks.
class Schema {
 public:
  explicit Schema(std::string model);
  Section& root() { return *root_; }
  const Section& root() const { return *root_; }
  const std::string& model() const { return model_; }
  /// The deck reference (Markdown): every key with type, default, range and meaning.
  std::string markdown() const;

 private:
  std::string model_;
  std::shared_ptr<Section> root_;
};

}  // namespace kirchhoff::io
