/* One dtype's dense decompositions, included by linalg_ops.h once per element type with
 *   T (element), R (its real type), SFX (name suffix), CODE (numr dtype code), CONJ(x), RE(x),
 *   ABS2(x) (|x|^2), ABS1(x) (|re| + |im|, for pivoting), ABSV(x) (|x| without
 *   squaring), EPS (machine epsilon of R).
 * Every matrix is row-major and contiguous; each routine works on one matrix in place.
 */
#include "linalg_lu.h"
#include "linalg_qr.h"
#include "linalg_gk.h"
#include "linalg_svd.h"
#include "linalg_qz.h"  /* before the eig headers: cgivens_ */
#ifdef NR_LA_REAL
#include "linalg_eig.h"  /* real dtypes: CT is the complex type of the results */
#include "linalg_eig_vec.h"
#else
#include "linalg_ceig.h"
#endif
#include "linalg_schur.h"  /* after the eig headers: reuses their Hessenberg/QR steps */
