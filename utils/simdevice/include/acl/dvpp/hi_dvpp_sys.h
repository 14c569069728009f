/* Simulated CANN device: the hi_mpi media system (acl/dvpp/hi_dvpp_sys.h). */
/* mssim-release: file not in 7.0 */
#ifndef HI_DVPP_SYS_H_
#define HI_DVPP_SYS_H_

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HI_ERR_SYS_ILLEGAL_PARAM 0xA0028003
#define HI_ERR_SYS_EXIST 0xA0028004
#define HI_ERR_SYS_UNEXIST 0xA0028005
#define HI_ERR_SYS_NULL_PTR 0xA0028006
#define HI_ERR_SYS_NOT_SUPPORT 0xA0028008
#define HI_ERR_SYS_NOT_PERM 0xA0028009
#define HI_ERR_SYS_NO_MEM 0xA002800C
#define HI_ERR_SYS_NOT_READY 0xA0028010
#define HI_ERR_SYS_BUSY 0xA0028012
#define HI_ERR_SYS_ERR 0xA0028015

typedef enum {
  HI_DVPP_EPOLL_CTL_ADD = 1,
  HI_DVPP_EPOLL_CTL_MOD = 2,
  HI_DVPP_EPOLL_CTL_DEL = 3,
  HI_DVPP_EPOLL_CTL_BUTT = 4
} hi_dvpp_epoll_ctl_op;

typedef enum {
  HI_DVPP_EPOLL_IN = 1u,
  HI_DVPP_EPOLL_OUT = 1u << 1u,
  HI_DVPP_EPOLL_ET = (hi_u32)1u << 31u
} hi_dvpp_epoll_event_type;

typedef struct {
  hi_u32 events;
  hi_void *data;
} hi_dvpp_epoll_event;

/* The media system, and waiting on channels' descriptors. */
hi_s32 hi_mpi_sys_init(hi_void);
hi_s32 hi_mpi_sys_exit(hi_void);
hi_s32 hi_mpi_sys_create_epoll(hi_s32 size, hi_s32 *epoll_fd);
hi_s32 hi_mpi_sys_ctl_epoll(hi_s32 epoll_fd, hi_s32 operation, hi_s32 fd,
                            hi_dvpp_epoll_event *event);
hi_s32 hi_mpi_sys_wait_epoll(hi_s32 epoll_fd, hi_dvpp_epoll_event *events,
                             hi_s32 max_events, hi_s32 timeout,
                             hi_s32 *event_num);
hi_s32 hi_mpi_sys_close_epoll(hi_s32 epoll_fd);
hi_s32 hi_mpi_sys_set_chn_csc_matrix(hi_mod_id mode, hi_s32 chn,
                                     hi_csc_matrix csc_matrix,
                                     hi_csc_coefficient *csc_coefficient);
hi_s32 hi_mpi_sys_get_chn_csc_matrix(hi_mod_id mode, hi_s32 chn,
                                     hi_csc_matrix *csc_matrix,
                                     hi_csc_coefficient *csc_coefficient);

#ifdef __cplusplus
}
#endif

#endif
