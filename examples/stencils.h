#pragma once
// One function per benchmark stencil; each returns a fresh, untyped program.
// See the comment at the top of each examples/<name>.cpp for the original
// formula, the boundary handling and the constants.

#include "core/ir/expr.h"

namespace liftcc::examples {

Program stencil2d();    // SHOC Stencil2D, 2D 9pt
Program srad1();        // Rodinia SRAD kernel 1 (diffusion coefficient), 2D 5pt
Program srad2();        // Rodinia SRAD kernel 2 (image update), 2D 3pt over 2 grids
Program hotspot2d();    // Rodinia Hotspot, 2D 5pt, temperature + power
Program hotspot3d();    // Rodinia Hotspot3D, 3D 7pt, temperature + power
Program acoustic();     // room acoustics FDTD, 3D 7pt, current + previous step + generated mask
Program gaussian();     // 5x5 Gaussian blur, 2D 25pt
Program gradient();     // gradient, 2D 5pt
Program jacobi2d5pt();  // 2D 5pt Jacobi
Program jacobi2d9pt();  // 2D 9pt Jacobi
Program jacobi3d7pt();  // 3D 7pt Jacobi
Program jacobi3d13pt(); // 3D 13pt Jacobi (radius 2 star)
Program poisson();      // 3D 19pt Poisson
Program heat();         // 3D 7pt heat equation
Program jacobi1d3pt();  // 1D 3pt Jacobi

} // namespace liftcc::examples
