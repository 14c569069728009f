/* Simulated CANN device: the hi_mpi DVPP interface (acl/dvpp/hi_dvpp.h):
 * the media system, video buffer pools, VPC, the video/JPEG decoder and
 * encoder, the PNG decoder, and DVPP memory. Signatures, types and values as in
 * the real headers; what the simulation implements is in
 * utils/simdevice/README.md, the rest are stand-ins that say so. */
/* mssim-release: file not in 7.0 */
#ifndef HI_DVPP_H_
#define HI_DVPP_H_

#include "hi_dvpp_pngd.h"
#include "hi_dvpp_sys.h"
#include "hi_dvpp_vb.h"
#include "hi_dvpp_vdec.h"
#include "hi_dvpp_venc.h"
#include "hi_dvpp_vpc.h"

#endif
