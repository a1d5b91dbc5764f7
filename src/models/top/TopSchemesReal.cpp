// The one instantiation of the heavy-top schemes (TopSchemes.hpp; docs/heavytop.md (HT-16), (CM-1))
// for double: the real one-step maps (TopStepper::step, the run loop, the tools).
#include "models/top/TopSchemes.hpp"

namespace kirchhoff::top {

KIRCHHOFF_TOP_SCHEME_INSTANTIATIONS(, double)

}  // namespace kirchhoff::top
