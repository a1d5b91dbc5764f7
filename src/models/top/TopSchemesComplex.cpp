// The one instantiation of the heavy-top schemes (TopSchemes.hpp; docs/heavytop.md (HT-16), (CM-1))
// for std::complex<double>: the complex-step maps of the symplecticity and Poisson checks
// (Symplecticity.cpp).
#include "models/top/TopSchemes.hpp"

namespace kirchhoff::top {

KIRCHHOFF_TOP_SCHEME_INSTANTIATIONS(, std::complex<double>)

}  // namespace kirchhoff::top
