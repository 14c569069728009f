/* Simulated CANN device: the hi_mpi DVPP interface (acl/dvpp/hi_dvpp.h):
 * the media system, video buffer pools, VPC, and DVPP memory. Signatures,
 * types and values as in the real headers; the simulation implements DVPP
 * memory, the rest are stand-ins that say so (utils/simdevice/README.md). */
/* mssim-release: file not in 7.0 */
#ifndef HI_DVPP_H_
#define HI_DVPP_H_

#include "hi_dvpp_sys.h"
#include "hi_dvpp_vb.h"
#include "hi_dvpp_vpc.h"

#endif
