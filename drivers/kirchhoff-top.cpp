// kirchhoff-top: the heavy top by the collective Lie–Poisson integrator and three comparison schemes
// (Ohsawa 2019; docs/heavytop.md). All of main() is the shared run loop; the model comes from setup/top.
#include "setup/top/TopSetup.hpp"

int main(int argc, char** argv) {
  return kirchhoff::run::main(argc, argv, kirchhoff::setup::topDriver());
}
