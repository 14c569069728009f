//===- AclLifecycleTest.cpp - binaries, labels, allocators, callbacks -----===//
//
// The create/destroy pairs of acl_lifecycle_api.cpp through the C API: each
// succeeds, refuses null and unknown or destroyed handles with the real error
// code, and takes and gives back device memory where the real runtime does
// (seen through the driver's accounting, aclrtGetMemInfo).
//
//===----------------------------------------------------------------------===//
#include "AclTestSupport.h"

#include <elf.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

/// What the driver counts for `bytes`: whole 512-byte units.
size_t units(size_t bytes) { return (bytes + 511) / 512 * 512; }

/// A minimal ELF64 relocatable object whose symbol table has the function
/// symbols `kernels` (defined in .text) and one data symbol.
std::vector<uint8_t> elfWithKernels(const std::vector<std::string> &kernels) {
  std::string strtab(1, '\0');
  std::vector<Elf64_Sym> symbols(1); // the null symbol
  for (const std::string &name : kernels) {
    Elf64_Sym sym = {};
    sym.st_name = strtab.size();
    sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
    sym.st_shndx = 1;
    symbols.push_back(sym);
    strtab += name + '\0';
  }
  Elf64_Sym data = {};
  data.st_name = strtab.size();
  data.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
  data.st_shndx = 1;
  symbols.push_back(data);
  strtab += std::string("not_a_kernel") + '\0';

  const std::vector<uint8_t> text(64, 0x90);
  size_t textOffset = sizeof(Elf64_Ehdr);
  size_t symOffset = textOffset + text.size();
  size_t strOffset = symOffset + symbols.size() * sizeof(Elf64_Sym);
  size_t shOffset = (strOffset + strtab.size() + 7) / 8 * 8;
  std::vector<uint8_t> bytes(shOffset + 4 * sizeof(Elf64_Shdr));

  Elf64_Ehdr header = {};
  memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_REL;
  header.e_version = EV_CURRENT;
  header.e_ehsize = sizeof(Elf64_Ehdr);
  header.e_shoff = shOffset;
  header.e_shentsize = sizeof(Elf64_Shdr);
  header.e_shnum = 4;
  memcpy(bytes.data(), &header, sizeof(header));
  memcpy(bytes.data() + textOffset, text.data(), text.size());
  memcpy(bytes.data() + symOffset, symbols.data(),
         symbols.size() * sizeof(Elf64_Sym));
  memcpy(bytes.data() + strOffset, strtab.data(), strtab.size());

  Elf64_Shdr sections[4] = {};
  sections[1].sh_type = SHT_PROGBITS;
  sections[1].sh_offset = textOffset;
  sections[1].sh_size = text.size();
  sections[2].sh_type = SHT_SYMTAB;
  sections[2].sh_offset = symOffset;
  sections[2].sh_size = symbols.size() * sizeof(Elf64_Sym);
  sections[2].sh_link = 3;
  sections[2].sh_entsize = sizeof(Elf64_Sym);
  sections[3].sh_type = SHT_STRTAB;
  sections[3].sh_offset = strOffset;
  sections[3].sh_size = strtab.size();
  memcpy(bytes.data() + shOffset, sections, sizeof(sections));
  return bytes;
}

aclrtBinaryLoadOptions *cpuMode() {
  static aclrtBinaryLoadOption option = {};
  option.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  option.value.cpuKernelMode = 1;
  static aclrtBinaryLoadOptions options = {&option, 1};
  return &options;
}

class AclLifecycleTest : public AclTest {};

TEST_F(AclLifecycleTest, BinaryDescriptionsAreCreatedAndDestroyedOnce) {
  EXPECT_EQ(aclrtCreateBinary(nullptr, 16), nullptr);
  EXPECT_EQ(aclrtDestroyBinary(nullptr), ACL_ERROR_INVALID_PARAM);
  std::vector<uint8_t> elf = elfWithKernels({"vec_add"});
  aclrtBinary binary = aclrtCreateBinary(elf.data(), elf.size());
  ASSERT_NE(binary, nullptr);
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_ERROR_INVALID_PARAM);
  aclrtBinHandle handle = nullptr;
  EXPECT_EQ(aclrtBinaryLoad(binary, &handle), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclLifecycleTest, BinaryLoadCopiesTheCodeToTheDevice) {
  std::vector<uint8_t> elf = elfWithKernels({"vec_add", "vec_mul"});
  aclrtBinary binary = aclrtCreateBinary(elf.data(), elf.size());
  ASSERT_NE(binary, nullptr);
  aclrtBinHandle handle = nullptr;
  EXPECT_EQ(aclrtBinaryLoad(nullptr, &handle), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoad(binary, nullptr), ACL_ERROR_INVALID_PARAM);

  size_t before = deviceBytesInUse();
  ASSERT_EQ(aclrtBinaryLoad(binary, &handle), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + units(elf.size() + 4096));
  // The description can go; the loaded binary has its own copy.
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_SUCCESS);

  aclrtFuncHandle add = nullptr, again = nullptr, mul = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(handle, "vec_add", &add), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryGetFunction(handle, "vec_add", &again), ACL_SUCCESS);
  EXPECT_EQ(add, again);
  EXPECT_EQ(aclrtBinaryGetFunction(handle, "vec_mul", &mul), ACL_SUCCESS);
  EXPECT_NE(add, mul);
  aclrtFuncHandle none = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(handle, "not_a_kernel", &none),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryGetFunction(handle, nullptr, &none),
            ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtBinaryGetFunction(handle, "vec_add", &none),
            ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtBinaryUnLoad(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclLifecycleTest, BinaryLoadRefusesWhatIsNotAKernelObject) {
  const char text[] = "not an ELF object at all, just some text";
  aclrtBinary binary = aclrtCreateBinary(text, sizeof(text));
  size_t before = deviceBytesInUse();
  aclrtBinHandle handle = nullptr;
  EXPECT_EQ(aclrtBinaryLoad(binary, &handle), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryLoadFromData(text, sizeof(text), nullptr, &handle),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_SUCCESS);
}

TEST_F(AclLifecycleTest, ResetDeviceLeavesALoadedBinaryLoaded) {
  std::vector<uint8_t> elf = elfWithKernels({"k"});
  aclrtBinary binary = aclrtCreateBinary(elf.data(), elf.size());
  size_t before = deviceBytesInUse();
  aclrtBinHandle handle = nullptr;
  ASSERT_EQ(aclrtBinaryLoad(binary, &handle), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  // No context: the runtime cannot unload (and the handle stays).
  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + units(elf.size() + 4096));
  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_SUCCESS);
}

TEST_F(AclLifecycleTest, LazyLoadsHoldNoDeviceMemory) {
  std::vector<uint8_t> elf = elfWithKernels({"vec_add"});
  size_t before = deviceBytesInUse();
  aclrtBinHandle fromData = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromData(nullptr, 1, nullptr, &fromData),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtBinaryLoadFromData(elf.data(), elf.size(), nullptr, &fromData),
            ACL_SUCCESS);

  char path[] = "/tmp/mssim-binary-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, elf.data(), elf.size()),
            static_cast<ssize_t>(elf.size()));
  close(fd);
  aclrtBinHandle fromFile = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(path, nullptr, &fromFile), ACL_SUCCESS);
  unlink(path);
  aclrtBinHandle missing = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(path, nullptr, &missing),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryLoadFromFile(nullptr, nullptr, &missing),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(deviceBytesInUse(), before);

  aclrtFuncHandle function = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(fromFile, "vec_add", &function),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(fromData), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(fromFile), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(fromFile), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(AclLifecycleTest, CpuFunctionsCopyTheLibraryToEachDevice) {
  const std::vector<uint8_t> library(3000, 0x5a);
  size_t before = deviceBytesInUse();
  aclrtBinHandle handle = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromData(library.data(), library.size(), cpuMode(),
                                    &handle),
            ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  aclrtFuncHandle first = nullptr, second = nullptr;
  EXPECT_EQ(aclrtRegisterCpuFunc(handle, "RunCpuKernel", "Add", nullptr),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtRegisterCpuFunc(handle, "RunCpuKernel", "Add", &first),
            ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + units(library.size()));
  ASSERT_EQ(aclrtRegisterCpuFunc(handle, "RunCpuKernel", "Mul", &second),
            ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + units(library.size()));
  EXPECT_NE(first, second);
  aclrtFuncHandle none = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(handle, "Add", &none),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtRegisterCpuFunc(handle, "RunCpuKernel", "Add", &none),
            ACL_ERROR_RT_INVALID_HANDLE);

  std::vector<uint8_t> elf = elfWithKernels({"k"});
  ASSERT_EQ(aclrtBinaryLoadFromData(elf.data(), elf.size(), nullptr, &handle),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtRegisterCpuFunc(handle, "RunCpuKernel", "Add", &none),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_SUCCESS);
}

TEST_F(AclLifecycleTest, LabelsBelongToTheirContext) {
  EXPECT_EQ(aclrtCreateLabel(nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtLabel label = nullptr;
  ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
  aclrtContext defaultContext = nullptr, other = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&defaultContext), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(label), ACL_ERROR_RT_LABEL_CONTEXT);
  ASSERT_EQ(aclrtSetCurrentContext(defaultContext), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(label), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(label), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtDestroyLabel(nullptr), ACL_ERROR_INVALID_PARAM);

  std::thread([] {
    aclrtLabel none = nullptr;
    EXPECT_EQ(aclrtCreateLabel(&none), ACL_ERROR_RT_CONTEXT_NULL);
  }).join();
}

TEST_F(AclLifecycleTest, LabelListsAreDeviceMemory) {
  aclrtLabel labels[3] = {};
  for (aclrtLabel &label : labels)
    ASSERT_EQ(aclrtCreateLabel(&label), ACL_SUCCESS);
  aclrtLabelList list = nullptr;
  EXPECT_EQ(aclrtCreateLabelList(nullptr, 3, &list), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateLabelList(labels, 3, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateLabelList(labels, 0, &list), ACL_ERROR_RT_PARAM_INVALID);

  size_t before = deviceBytesInUse();
  ASSERT_EQ(aclrtCreateLabelList(labels, 3, &list), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + units(3 * 16));
  // Its records start as 0xFF (no label placed yet).
  std::vector<uint8_t> records(48);
  ASSERT_EQ(aclrtMemcpy(records.data(), records.size(), list, records.size(),
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(records, std::vector<uint8_t>(48, 0xFF));
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtDestroyLabelList(list), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtDestroyLabelList(nullptr), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclrtDestroyLabel(labels[1]), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateLabelList(labels, 3, &list),
            ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtDestroyLabel(labels[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyLabel(labels[2]), ACL_SUCCESS);
}

TEST_F(AclLifecycleTest, CountingNotifies) {
  aclrtCntNotify notify = nullptr;
  EXPECT_EQ(aclrtCntNotifyCreate(&notify, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCntNotifyCreate(nullptr, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtCntNotifyCreate(&notify, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtCntNotifyDestroy(notify), ACL_SUCCESS);
  EXPECT_EQ(aclrtCntNotifyDestroy(notify), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtCntNotifyDestroy(nullptr), ACL_ERROR_RT_PARAM_INVALID);
  std::thread([] {
    aclrtCntNotify none = nullptr;
    EXPECT_EQ(aclrtCntNotifyCreate(&none, 0), ACL_ERROR_RT_CONTEXT_NULL);
  }).join();
}

struct Pool {
  int allocations = 0;
  char block[64] = {};
};

void *poolAlloc(aclrtAllocator allocator, size_t) {
  auto *pool = static_cast<Pool *>(allocator);
  ++pool->allocations;
  return pool->block;
}
void poolFree(aclrtAllocator allocator, aclrtAllocatorBlock) {
  --static_cast<Pool *>(allocator)->allocations;
}
void *poolAddress(aclrtAllocatorBlock block) { return block; }

TEST_F(AclLifecycleTest, AllocatorsRegisteredOnAStreamAreCallable) {
  Pool pool;
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(nullptr, poolAlloc),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorSetObjToDesc(desc, &pool), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, poolAlloc), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, poolFree), ACL_SUCCESS);

  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  // Without its get-address function the description is incomplete.
  EXPECT_EQ(aclrtAllocatorRegister(stream, desc), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, poolAddress),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorRegister(stream, desc), ACL_SUCCESS);

  aclrtAllocatorDesc got = nullptr;
  aclrtAllocator object = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc release = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc address = nullptr;
  ASSERT_EQ(aclrtAllocatorGetByStream(stream, &got, &object, &alloc, &release,
                                      &advise, &address),
            ACL_SUCCESS);
  EXPECT_EQ(got, desc);
  EXPECT_EQ(advise, nullptr);
  void *block = alloc(object, 16);
  EXPECT_EQ(pool.allocations, 1);
  EXPECT_EQ(address(block), pool.block);
  release(object, block);
  EXPECT_EQ(pool.allocations, 0);

  // The registration keeps its own copy: the description may go.
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorGetByStream(stream, &got, nullptr, &alloc, nullptr,
                                      nullptr, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(alloc, poolAlloc);
  EXPECT_EQ(aclrtAllocatorRegister(stream, desc), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclrtAllocatorUnregister(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorGetByStream(stream, &got, nullptr, nullptr, nullptr,
                                      nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorUnregister(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);

  aclrtAllocatorDesc late = aclrtAllocatorCreateDesc();
  aclrtAllocatorSetObjToDesc(late, &pool);
  aclrtAllocatorSetAllocFuncToDesc(late, poolAlloc);
  aclrtAllocatorSetFreeFuncToDesc(late, poolFree);
  aclrtAllocatorSetGetAddrFromBlockFuncToDesc(late, poolAddress);
  EXPECT_EQ(aclrtAllocatorRegister(stream, late), ACL_ERROR_RT_STREAM_CONTEXT);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(late), ACL_SUCCESS);
}

TEST_F(AclLifecycleTest, TheSimulatedDevicesHaveNoGroups) {
  uint32_t count = 7;
  EXPECT_EQ(aclrtGetGroupCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  size_t before = deviceBytesInUse();
  EXPECT_EQ(aclrtCreateGroupInfo(), nullptr);
  EXPECT_EQ(deviceBytesInUse(), before);
  EXPECT_EQ(aclrtDestroyGroupInfo(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclLifecycleTest, TaskSchedulerMemoryIsDeviceMemory) {
  void *memory = nullptr;
  EXPECT_EQ(aclrtMallocForTaskScheduler(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST,
                                        nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocForTaskScheduler(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST,
                                        nullptr),
            ACL_ERROR_INVALID_PARAM);
  size_t before = deviceBytesInUse();
  ASSERT_EQ(aclrtMallocForTaskScheduler(&memory, 32768,
                                        ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before + units(32800));
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  EXPECT_EQ(deviceBytesInUse(), before);
}

int initCalls = 0;
int finalizeCalls = 0;
aclError onInit(const char *, size_t, void *userData) {
  ++*static_cast<int *>(userData);
  return ACL_SUCCESS;
}
aclError onFinalize(void *userData) {
  ++*static_cast<int *>(userData);
  return ACL_SUCCESS;
}
aclError failFinalize(void *) { return ACL_ERROR_INTERNAL_ERROR; }

TEST_F(AclLifecycleTest, CallbacksRunAtInitAndFinalize) {
  initCalls = finalizeCalls = 0;
  EXPECT_EQ(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr),
            ACL_ERROR_INVALID_PARAM);
  // Registered after aclInit, it runs at once.
  ASSERT_EQ(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, onInit, &initCalls),
            ACL_SUCCESS);
  EXPECT_EQ(initCalls, 1);
  ASSERT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, onFinalize,
                                        &finalizeCalls),
            ACL_SUCCESS);
  ASSERT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, onFinalize,
                                        &finalizeCalls),
            ACL_SUCCESS);
  // One callback per type, except ACL_REG_TYPE_OTHER.
  EXPECT_EQ(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, onFinalize,
                                        &finalizeCalls),
            ACL_ERROR_INTERNAL_ERROR);

  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(finalizeCalls, 2);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(initCalls, 2);

  EXPECT_EQ(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, onInit), ACL_SUCCESS);
  EXPECT_EQ(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, onInit),
            ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, onFinalize),
            ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, onFinalize),
            ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, onFinalize),
            ACL_ERROR_INTERNAL_ERROR);

  // A failing finalisation callback fails aclFinalize, which finalises
  // nothing.
  ASSERT_EQ(
      aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, failFinalize, nullptr),
      ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, failFinalize),
            ACL_SUCCESS);
  EXPECT_EQ(finalizeCalls, 2);
}

TEST_F(AclLifecycleTest, FinalizeReferenceDropsOneAclInitReference) {
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE); // a second one
  uint64_t references = 9;
  ASSERT_EQ(aclFinalizeReference(&references), ACL_SUCCESS);
  EXPECT_EQ(references, 1u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS); // still initialised
  ASSERT_EQ(aclFinalizeReference(&references), ACL_SUCCESS);
  EXPECT_EQ(references, 0u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclFinalizeReference(nullptr), ACL_ERROR_REPEAT_FINALIZE);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); // for TearDown
}

} // namespace
