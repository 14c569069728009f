/* Simulated CANN device: the hi_mpi DVPP memory interface (signatures as in the
 * real hi_dvpp.h). */
/* mssim-release: file not in 7.0 */
#ifndef MSSIM_ACL_DVPP_HI_DVPP_H
#define MSSIM_ACL_DVPP_HI_DVPP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int hi_s32;
typedef unsigned int hi_u32;
typedef unsigned long long hi_u64;
typedef void hi_void;

#define HI_SUCCESS 0
/* hi_mpi error codes: 0xA0000000 | module << 16 | level << 13 | code, as in
 * CANN. */
#define HI_ERR_DVPP_ILLEGAL_PARAM ((hi_s32)0xA0078003)
#define HI_ERR_DVPP_NULL_PTR ((hi_s32)0xA0078006)
#define HI_ERR_DVPP_NO_MEM ((hi_s32)0xA007800C)

__attribute__((visibility("default"))) hi_s32
hi_mpi_dvpp_malloc(hi_u32 dev_id, hi_void **dev_ptr, hi_u64 size);
__attribute__((visibility("default"))) hi_s32
hi_mpi_dvpp_free(hi_void *dev_ptr);

#ifdef __cplusplus
}
#endif

#endif
