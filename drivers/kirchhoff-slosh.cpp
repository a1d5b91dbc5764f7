// kirchhoff-slosh: shallow-water sloshing in a spring-restrained vehicle (seed 001, docs/slosh.md).
// All of main() is the shared run loop; the model and its deck keys come from setup/slosh.
#include "setup/slosh/SloshSetup.hpp"

int main(int argc, char** argv) {
  return kirchhoff::run::main(argc, argv, kirchhoff::setup::sloshDriver());
}
