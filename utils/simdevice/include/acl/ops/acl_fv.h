/* Simulated CANN device: feature vector search (signatures as in the real
 * acl_fv.h, whose include guard it keeps). Its functions are in
 * libacl_retr.so, as in a real toolkit: a program that calls them links
 * -lacl_retr. Like the real header it is C++ only (the search type's
 * enumeration has no typedef). What is simulated: utils/simdevice/README.md,
 * "TDT channels, queues and feature vector search". */
#ifndef INC_EXTERNAL_ACL_OPS_ACL_RETR_H_
#define INC_EXTERNAL_ACL_OPS_ACL_RETR_H_

#include "../acl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclfvInitPara aclfvInitPara;
typedef struct aclfvFeatureInfo aclfvFeatureInfo;
typedef struct aclfvRepoRange aclfvRepoRange;
typedef struct aclfvQueryTable aclfvQueryTable;
typedef struct aclfvSearchInput aclfvSearchInput;
typedef struct aclfvSearchResult aclfvSearchResult;

/* 1:N or N:M search. */
enum aclfvSearchType { SEARCH_1_N, SEARCH_N_M };

/* Each description below is made by its aclfvCreate* and released by the
 * aclfvDestroy* of the same name. */

/* What aclfvInit takes: the number of features, and the top-N bounds. */
ACL_FUNC_VISIBILITY aclfvInitPara *aclfvCreateInitPara(uint64_t fsNum);
ACL_FUNC_VISIBILITY aclError aclfvDestroyInitPara(aclfvInitPara *initPara);
ACL_FUNC_VISIBILITY aclError aclfvSet1NTopNum(aclfvInitPara *initPara,
                                              uint32_t maxTopNumFor1N);
ACL_FUNC_VISIBILITY aclError aclfvSetNMTopNum(aclfvInitPara *initPara,
                                              uint32_t maxTopNumForNM);

/* featureCount features of featureLen bytes at featureData, for the library
 * (id0, id1) from offset on. */
ACL_FUNC_VISIBILITY aclfvFeatureInfo *
aclfvCreateFeatureInfo(uint32_t id0, uint32_t id1, uint32_t offset,
                       uint32_t featureLen, uint32_t featureCount,
                       uint8_t *featureData, uint32_t featureDataLen);
ACL_FUNC_VISIBILITY aclError
aclfvDestroyFeatureInfo(aclfvFeatureInfo *featureInfo);

/* The libraries [id0Min, id0Max] x [id1Min, id1Max]. */
ACL_FUNC_VISIBILITY aclfvRepoRange *aclfvCreateRepoRange(uint32_t id0Min,
                                                         uint32_t id0Max,
                                                         uint32_t id1Min,
                                                         uint32_t id1Max);
ACL_FUNC_VISIBILITY aclError aclfvDestroyRepoRange(aclfvRepoRange *repoRange);

/* queryCnt query tables of tableLen bytes at tableData. */
ACL_FUNC_VISIBILITY aclfvQueryTable *
aclfvCreateQueryTable(uint32_t queryCnt, uint32_t tableLen, uint8_t *tableData,
                      uint32_t tableDataLen);
ACL_FUNC_VISIBILITY aclError
aclfvDestroyQueryTable(aclfvQueryTable *queryTable);

/* A search of queryTable's queries in repoRange for the topk nearest. */
ACL_FUNC_VISIBILITY aclfvSearchInput *
aclfvCreateSearchInput(aclfvQueryTable *queryTable, aclfvRepoRange *repoRange,
                       uint32_t topk);
ACL_FUNC_VISIBILITY aclError
aclfvDestroySearchInput(aclfvSearchInput *searchInput);

/* Where a search writes its results, for queryCnt queries. */
ACL_FUNC_VISIBILITY aclfvSearchResult *
aclfvCreateSearchResult(uint32_t queryCnt, uint32_t *resultNum,
                        uint32_t resultNumDataLen, uint32_t *id0, uint32_t *id1,
                        uint32_t *resultOffset, float *resultDistance,
                        uint32_t dataLen);
ACL_FUNC_VISIBILITY aclError
aclfvDestroySearchResult(aclfvSearchResult *searchResult);

/* The search engine on the device: set up by aclfvInit, released by
 * aclfvRelease. */
ACL_FUNC_VISIBILITY aclError aclfvInit(aclfvInitPara *initPara);
ACL_FUNC_VISIBILITY aclError aclfvRelease();

/* Adding features to, and deleting them from, the libraries. */
ACL_FUNC_VISIBILITY aclError aclfvRepoAdd(aclfvSearchType type,
                                          aclfvFeatureInfo *featureInfo);
ACL_FUNC_VISIBILITY aclError aclfvRepoDel(aclfvSearchType type,
                                          aclfvRepoRange *repoRange);
ACL_FUNC_VISIBILITY aclError aclfvDel(aclfvFeatureInfo *featureInfo);
ACL_FUNC_VISIBILITY aclError aclfvModify(aclfvFeatureInfo *featureInfo);

ACL_FUNC_VISIBILITY aclError aclfvSearch(aclfvSearchType type,
                                         aclfvSearchInput *searchInput,
                                         aclfvSearchResult *searchRst);

#ifdef __cplusplus
}
#endif

#endif
