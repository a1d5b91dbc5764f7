// kirchhoff-damped: Rayleigh-damped Hamiltonian systems and the double-bracket dissipative rigid body
// (docs/damped.md). All of main() is the shared run loop; the model comes from setup/damped.
#include "setup/damped/DampedSetup.hpp"

int main(int argc, char** argv) {
  return kirchhoff::run::main(argc, argv, kirchhoff::setup::dampedDriver());
}
