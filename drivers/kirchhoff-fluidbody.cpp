// kirchhoff-fluidbody: rigid bodies + point vortices in an ideal 2D fluid (Weißmann 2014; docs/fluidbody.md).
// All of main() is the shared run loop; the model and its deck keys come from setup/fluidbody.
#include "setup/fluidbody/FluidBodySetup.hpp"

int main(int argc, char** argv) {
  return kirchhoff::run::main(argc, argv, kirchhoff::setup::fluidbodyDriver());
}
