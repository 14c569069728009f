//===- toolkit_library.cpp - A toolkit library's presence -----------------===//
//
// libacl_cblas.so and libacl_op_compiler.so are libraries of their own in a
// real toolkit, so a project links them with the same -l flags here. The
// simulation does not implement BLAS or the op compiler: these libraries
// only stand where a real toolkit's do, depending on libascendcl.so as those
// do.
//
//===----------------------------------------------------------------------===//
#include "acl/acl.h"

namespace mssim {
/// Keeps libascendcl.so a dependency of the library, as in a real toolkit.
__attribute__((used)) static aclError (*const kRuntime)(const char *) = aclInit;
} // namespace mssim
