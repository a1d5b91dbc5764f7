// A validated YAML input deck: strict checks against a Schema (unknown key, wrong type, range,
// missing key, unknown choice), each failure a DeckError naming file, line, column and key.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/Error.hpp"
#include "io/Schema.hpp"

namespace kirchhoff::io {

/// Read access to one validated map of the deck. Missing optional keys return their defaults.
class DeckNode {
 public:
  DeckNode(YAML::Node node, const Section* section, std::string path, const std::string* file,
           std::vector<std::pair<std::string, std::string>> chosen);

  bool has(const std::string& key) const;
  double real(const std::string& key) const;
  long integer(const std::string& key) const;
  bool boolean(const std::string& key) const;
  std::string string(const std::string& key) const;
  std::vector<double> vector(const std::string& key) const;  ///< RealVector or RealList
  DeckNode map(const std::string& key) const;                ///< present, or an empty map
  std::vector<DeckNode> list(const std::string& key) const;  ///< empty if absent
  /// "deck.yaml:12:5" of a key (or of this map if key is empty).
  std::string where(const std::string& key = "") const;
  /// "bodies[1].shape.radius"
  std::string keyPath(const std::string& key) const;
  /// Throws a DeckError for a cross-key check the schema cannot express (e.g. overlapping bodies).
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

 private:
  const KeySpec& spec(const std::string& key) const;
  YAML::Node valueOrDefault(const std::string& key) const;

  YAML::Node node_;
  const Section* section_;
  std::string path_;
  const std::string* file_;
  std::vector<std::pair<std::string, std::string>> chosen_;
};

/// One edit of a parsed deck tree (a --set, a sweep value): applied once with `notes` (lines
/// about keys it removed; may be null) and replayed with null notes on every fresh parse.
using DeckEdit = std::function<void(YAML::Node& root, std::vector<std::string>* notes)>;

class Deck {
 public:
  /// Parses and validates `text` (the contents of `file`); throws DeckError.
  Deck(const std::string& text, const std::string& file, const Schema& schema);
  /// Reads and validates a file; throws DeckError if unreadable.
  static Deck fromFile(const std::string& file, const Schema& schema);
  /// Copies are deep: YAML::Node copies share one tree and YAML::Node::operator= writes through
  /// it, so a shallow copy assigned to would silently change the deck it came from. A copy is a
  /// fresh parse of the file's text with the edits replayed (YAML::Clone drops the file
  /// positions), so its messages still name file:line:column.
  Deck(const Deck& other);
  Deck& operator=(const Deck& other);
  Deck(Deck&&) noexcept = default;  // constructs root_ as a new handle: no write-through
  Deck& operator=(Deck&& other) noexcept;

  DeckNode root() const;
  const std::string& text() const { return text_; }
  const std::string& file() const { return file_; }
  const Schema& schema() const { return *schema_; }
  /// 64-bit FNV-1a hash of the deck text (stored in checkpoints).
  std::uint64_t hash() const;
  /// "deck.yaml:21:1: key 'initial'" for the first of the dotted key paths present in the deck
  /// ("rigid_body.M0"), or just the file name if none is: where a message about them points.
  std::string locate(const std::vector<std::string>& keyPaths) const;
  /// The deck's `petsc_options:` string ("" if absent).
  std::string petscOptions() const;
  /// A new deck with the scalar at `path` (e.g. "bodies[0].density") replaced by `value`,
  /// re-validated; used by sweeps.
  Deck withOverride(const std::string& path, const YAML::Node& value) const;
  /// A new deck named `file`: this one with `edits` applied in order to a fresh parse (untouched
  /// keys keep their file positions), re-validated; its text is the edited tree, emitted.
  /// `notes` (if given) gets the edits' notes. Used by withOverride and io/DeckOverrides.
  Deck edited(const std::vector<DeckEdit>& edits, const std::string& file,
              std::vector<std::string>* notes = nullptr) const;

 private:
  Deck(YAML::Node root, std::string text, std::string file, const Schema& schema, std::string source,
       std::vector<DeckEdit> edits);
  /// The checks of every constructor: a map, of this schema's model, valid.
  void check() const;
  /// YAML::Load(source_) with edits_ replayed: the tree, every node with its file position.
  YAML::Node parsed() const;

  std::string text_;
  std::string file_;
  const Schema* schema_;
  std::string source_;  ///< the file's text: what the nodes' positions refer to
  std::vector<DeckEdit> edits_;  ///< made to the parse of source_ since, in order
  YAML::Node root_;
};

/// Checks one value against its key's spec (type, range, choices), as in a file; throws
/// DeckError "<where>: key '<key>': ...".
void validateKeyValue(const YAML::Node& value, const KeySpec& spec, const std::string& key,
                      const std::string& where);

/// Levenshtein distance (for "did you mean").
std::size_t keyEditDistance(const std::string& a, const std::string& b);

/// Strict validation of `node` against `section`; throws DeckError.
void validate(const YAML::Node& node, const Section& section, const std::string& path,
              const std::string& file);

}  // namespace kirchhoff::io
