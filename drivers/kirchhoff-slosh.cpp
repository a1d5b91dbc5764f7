// kirchhoff-slosh: shallow-water sloshing in a spring-restrained vehicle (Alemi Ardakani & Bridges
// 2010; docs/slosh.md). All of main() is the shared run loop; the model and its deck keys: setup/slosh.
#include "setup/slosh/SloshSetup.hpp"

int main(int argc, char** argv) {
  return kirchhoff::run::main(argc, argv, kirchhoff::setup::sloshDriver());
}
