#include "exporter/cuda_host.h"

#include "exporter/c_text.h"
#include "exporter/template_text.h"

#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace liftcc::exporter {

namespace {

/// `options[3] = "--use_fast_math";` lines for the exported NVRTC call.
std::string extraOptionLines(const std::vector<std::string> &options) {
  std::string lines;
  for (size_t i = 0; i < options.size(); ++i)
    lines += "  options[" + std::to_string(3 + i) + "] = " + cStringLiteral(options[i], "") + ";\n";
  return lines;
}

using Role = codegen::KernelArg::Role;

const char *kHeader = R"C(@COMMENT@
#ifndef @API@_H
#define @API@_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

@MACROS@
typedef enum @api@_status {
  @API@_OK = 0,
  @API@_ERROR_INVALID_ARGUMENT = 1, /* a null handle or pointer, memory that is not a device allocation, an aliased output */
  @API@_ERROR_SIZE_MISMATCH = 2,    /* a size differs from the one the kernel was generated for */
  @API@_ERROR_BUFFER_TOO_SMALL = 3, /* fewer bytes from a pointer to the end of its allocation than its _BYTES macro */
  @API@_ERROR_WRONG_CONTEXT = 4,    /* no current context, or another one than the program was built in */
  @API@_ERROR_BUILD_FAILED = 5,     /* NVRTC rejected the kernel: see the log */
  @API@_ERROR_DEVICE_LIMITS = 6,    /* the device cannot run the kernel's block size */
  @API@_ERROR_OUT_OF_HOST_MEMORY = 7,
  @API@_ERROR_CUDA = 8,             /* a CUDA driver call failed: @api@_last_error() has its code */
  @API@_ERROR_NO_NVRTC = 9          /* compiled with @API@_NO_NVRTC, and no PTX or cubin was given */
} @api@_status;

/* The kernel loaded into one CUDA context (opaque). */
typedef struct @api@_program @api@_program;

/* The CUDA C source of the kernels and the names of their (extern "C") kernel
 * functions, in the order they are launched. */
#define @API@_KERNELS @KERNELCOUNT@
/* The source, in pieces to be put one after another (a C99 compiler need not
 * support longer string literals). */
#define @API@_KERNEL_SOURCE_PARTS @SOURCEPARTS@
extern const char *const @api@_kernel_source[@API@_KERNEL_SOURCE_PARTS];
extern const char *const @api@_kernel_names[@API@_KERNELS];

/* Compiles the kernel source with NVRTC to PTX for compute capability
 * cc_major.cc_minor; *ptx is NUL-terminated, free it with free(). `log`
 * (when not NULL) receives at most log_size - 1 characters of NVRTC's log.
 * Link with -lnvrtc, or define @API@_NO_NVRTC when compiling this file to
 * leave NVRTC out (this then returns @API@_ERROR_NO_NVRTC). */
@api@_status @api@_compile_ptx(int cc_major, int cc_minor, char **ptx, char *log, size_t log_size);

/* Loads the kernel into the current context (cuCtxGetCurrent): from `image`
 * (PTX or cubin for cuModuleLoadData, e.g. from @api@_compile_ptx or nvcc)
 * or, when `image` is NULL, from the source compiled with NVRTC for the
 * current device. Build once, launch many times. On failure *program is
 * NULL and `log` says what failed. */
@api@_status @api@_build(const void *image, @api@_program **program, char *log, size_t log_size);

/* Enqueues the whole computation on `stream` (0: the default stream) in the
 * program's context, which must be current: reads the inputs and writes the
 * outputs. Nothing is waited for. Each size must equal its macro above and
 * each pointer have at least its _BYTES up to the end of its allocation. */
@api@_status @api@_launch(@api@_program *program, CUstream stream@PARAMS@);

/* Unloads the module and frees the temporaries and any scratch memory (with
 * the program's context current); NULL is ignored. */
void @api@_release(@api@_program *program);

/* The CUDA error code of the last driver call that failed in a launch. */
CUresult @api@_last_error(const @api@_program *program);

/* A short description of a status. */
const char *@api@_status_string(@api@_status status);

#ifdef __cplusplus
}
#endif

#endif /* @API@_H */
)C";

const char *kSource = R"C(@COMMENT@
#include "@api@.h"

#ifndef @API@_NO_NVRTC
#include <nvrtc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

@SOURCE@
const char *const @api@_kernel_names[@API@_KERNELS] = {@KERNELNAMES@};

struct @api@_program {
  CUcontext context;
  CUmodule module;
  CUfunction functions[@API@_KERNELS];
  CUdeviceptr temporaries[@TEMPORARYSLOTS@]; /* @TEMPORARYNOTE@ */
  CUdeviceptr scratch; /* the second buffer of an iteration, allocated by the first launch that needs it */
  CUresult last_error;
};

/* Each kernel's block shape (its grid, with the launches below, covers the work-items rounded up to it). */
static const unsigned int @api@_block[@API@_KERNELS][3] = {@BLOCK@};

static void @api@_write_log(char *log, size_t log_size, const char *text) {
  size_t n;
  if (!log || log_size == 0) return;
  n = strlen(text);
  if (n >= log_size) n = log_size - 1;
  memcpy(log, text, n);
  log[n] = '\0';
}

const char *@api@_status_string(@api@_status status) {
  switch (status) {
  case @API@_OK: return "success";
  case @API@_ERROR_INVALID_ARGUMENT: return "invalid argument (null handle or pointer, not device memory, or aliased output)";
  case @API@_ERROR_SIZE_MISMATCH: return "a size differs from the one the kernel was generated for";
  case @API@_ERROR_BUFFER_TOO_SMALL: return "a buffer is too small";
  case @API@_ERROR_WRONG_CONTEXT: return "no current CUDA context, or another one than the program's";
  case @API@_ERROR_BUILD_FAILED: return "NVRTC rejected the kernel";
  case @API@_ERROR_DEVICE_LIMITS: return "the device cannot run the kernel's block size";
  case @API@_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
  case @API@_ERROR_CUDA: return "a CUDA driver call failed";
  case @API@_ERROR_NO_NVRTC: return "compiled without NVRTC and no PTX or cubin given";
  }
  return "unknown status";
}

CUresult @api@_last_error(const @api@_program *program) { return program ? program->last_error : CUDA_SUCCESS; }

void @api@_release(@api@_program *program) {
  size_t i;
  if (!program) return;
  if (program->scratch) cuMemFree(program->scratch);
  for (i = 0; i < sizeof program->temporaries / sizeof program->temporaries[0]; ++i)
    if (program->temporaries[i]) cuMemFree(program->temporaries[i]);
  if (program->module) cuModuleUnload(program->module);
  free(program);
}

/* Writes "<what> failed: <error name> (<code>)" to the log. */
static void @api@_log_cuda(const char *what, CUresult result, char *log, size_t log_size) {
  const char *name = NULL;
  char text[200];
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "unknown error";
  snprintf(text, sizeof text, "%s failed: %s (%d)", what, name, (int)result);
  @api@_write_log(log, log_size, text);
}

@api@_status @api@_compile_ptx(int cc_major, int cc_minor, char **ptx, char *log, size_t log_size) {
#ifdef @API@_NO_NVRTC
  (void)cc_major;
  (void)cc_minor;
  if (ptx) *ptx = NULL;
  @api@_write_log(log, log_size, "compiled with @API@_NO_NVRTC: give @api@_build a PTX or cubin image");
  return @API@_ERROR_NO_NVRTC;
#else
  nvrtcProgram nvrtc = NULL;
  nvrtcResult result;
  char arch[64];
  const char *options[@OPTIONCOUNT@];
  size_t size = 0;
  char *source;
  int part;
  if (log && log_size) log[0] = '\0';
  if (!ptx) return @API@_ERROR_INVALID_ARGUMENT;
  *ptx = NULL;
  if (cc_major < 1 || cc_major > 99 || cc_minor < 0 || cc_minor > 9) return @API@_ERROR_INVALID_ARGUMENT;
  /* The options liftc compiles CUDA kernels with (tuner/cuda/nvrtc_compiler.h). */
  snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", cc_major, cc_minor);
  options[0] = arch;
  options[1] = "--std=c++17";
  options[2] = "--device-as-default-execution-space";
@EXTRAOPTIONS@  /* NVRTC takes the source as one string: the pieces joined. */
  for (part = 0; part < @API@_KERNEL_SOURCE_PARTS; ++part) size += strlen(@api@_kernel_source[part]);
  source = (char *)malloc(size + 1);
  if (!source) return @API@_ERROR_OUT_OF_HOST_MEMORY;
  source[0] = '\0';
  for (part = 0; part < @API@_KERNEL_SOURCE_PARTS; ++part) strcat(source, @api@_kernel_source[part]);
  result = nvrtcCreateProgram(&nvrtc, source, "@api@.cu", 0, NULL, NULL);
  if (result != NVRTC_SUCCESS) {
    free(source);
    @api@_write_log(log, log_size, nvrtcGetErrorString(result));
    return result == NVRTC_ERROR_OUT_OF_MEMORY ? @API@_ERROR_OUT_OF_HOST_MEMORY : @API@_ERROR_BUILD_FAILED;
  }
  result = nvrtcCompileProgram(nvrtc, @OPTIONCOUNT@, options);
  free(source);
  if (result != NVRTC_SUCCESS) {
    char *text = NULL;
    if (nvrtcGetProgramLogSize(nvrtc, &size) == NVRTC_SUCCESS && (text = (char *)malloc(size + 1)) != NULL &&
        nvrtcGetProgramLog(nvrtc, text) == NVRTC_SUCCESS) {
      text[size] = '\0';
      @api@_write_log(log, log_size, text);
    } else {
      @api@_write_log(log, log_size, nvrtcGetErrorString(result));
    }
    free(text);
    nvrtcDestroyProgram(&nvrtc);
    return @API@_ERROR_BUILD_FAILED;
  }
  if (nvrtcGetPTXSize(nvrtc, &size) != NVRTC_SUCCESS || (*ptx = (char *)malloc(size + 1)) == NULL) {
    nvrtcDestroyProgram(&nvrtc);
    return @API@_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (nvrtcGetPTX(nvrtc, *ptx) != NVRTC_SUCCESS) {
    free(*ptx);
    *ptx = NULL;
    nvrtcDestroyProgram(&nvrtc);
    @api@_write_log(log, log_size, "nvrtcGetPTX failed");
    return @API@_ERROR_BUILD_FAILED;
  }
  (*ptx)[size] = '\0';
  nvrtcDestroyProgram(&nvrtc);
  return @API@_OK;
#endif
}

/* Ends a failed build: says what failed in the log and frees the program. */
static @api@_status @api@_build_failed(@api@_program *program, const char *what, CUresult result, char *log,
                                       size_t log_size) {
  @api@_log_cuda(what, result, log, log_size);
  @api@_release(program);
  return @API@_ERROR_CUDA;
}

@api@_status @api@_build(const void *image, @api@_program **program, char *log, size_t log_size) {
  @api@_program *p;
  CUcontext context = NULL;
  CUresult result;
  char *ptx = NULL;
  int most = 0;
  unsigned int s;
  if (log && log_size) log[0] = '\0';
  if (!program) return @API@_ERROR_INVALID_ARGUMENT;
  *program = NULL;
  result = cuCtxGetCurrent(&context);
  if (result != CUDA_SUCCESS) {
    @api@_log_cuda("cuCtxGetCurrent", result, log, log_size);
    return @API@_ERROR_CUDA;
  }
  if (!context) {
    @api@_write_log(log, log_size, "no current CUDA context");
    return @API@_ERROR_WRONG_CONTEXT;
  }
  p = (@api@_program *)calloc(1, sizeof *p);
  if (!p) return @API@_ERROR_OUT_OF_HOST_MEMORY;
  p->context = context;
  if (!image) {
    CUdevice device;
    int major = 0, minor = 0;
    @api@_status status;
    result = cuCtxGetDevice(&device);
    if (result != CUDA_SUCCESS) return @api@_build_failed(p, "cuCtxGetDevice", result, log, log_size);
    result = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    if (result == CUDA_SUCCESS) result = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    if (result != CUDA_SUCCESS) return @api@_build_failed(p, "cuDeviceGetAttribute", result, log, log_size);
    status = @api@_compile_ptx(major, minor, &ptx, log, log_size);
    if (status != @API@_OK) {
      @api@_release(p);
      return status;
    }
    image = ptx;
  }
  result = cuModuleLoadData(&p->module, image);
  free(ptx);
  if (result != CUDA_SUCCESS) return @api@_build_failed(p, "cuModuleLoadData", result, log, log_size);
  for (s = 0; s < @API@_KERNELS; ++s) {
    const unsigned int *block = @api@_block[s];
    result = cuModuleGetFunction(&p->functions[s], p->module, @api@_kernel_names[s]);
    if (result != CUDA_SUCCESS) return @api@_build_failed(p, "cuModuleGetFunction", result, log, log_size);
    result = cuFuncGetAttribute(&most, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, p->functions[s]);
    if (result != CUDA_SUCCESS) return @api@_build_failed(p, "cuFuncGetAttribute", result, log, log_size);
    if ((long long)block[0] * block[1] * block[2] > (long long)most) {
      char text[200];
      snprintf(text, sizeof text, "the block size %u x %u x %u does not fit this device (at most %d threads)", block[0],
               block[1], block[2], most);
      @api@_write_log(log, log_size, text);
      @api@_release(p);
      return @API@_ERROR_DEVICE_LIMITS;
    }
  }
@TEMPORARIES@  *program = p;
  return @API@_OK;
}

/* INVALID_ARGUMENT or BUFFER_TOO_SMALL unless `pointer` points into a device
 * allocation with at least `bytes` bytes from there to its end. */
static @api@_status @api@_check_buffer(@api@_program *program, CUdeviceptr pointer, size_t bytes) {
  CUdeviceptr base = 0;
  size_t size = 0;
  CUresult result = cuMemGetAddressRange(&base, &size, pointer);
  if (result != CUDA_SUCCESS) {
    program->last_error = result;
    return result == CUDA_ERROR_NOT_FOUND || result == CUDA_ERROR_INVALID_VALUE ? @API@_ERROR_INVALID_ARGUMENT
                                                                                : @API@_ERROR_CUDA;
  }
  return (size_t)(pointer - base) > size || bytes > size - (size_t)(pointer - base) ? @API@_ERROR_BUFFER_TOO_SMALL
                                                                                      : @API@_OK;
}

@ENQUEUE@@api@_status @api@_launch(@api@_program *program, CUstream stream@PARAMS@) {
  CUcontext current = NULL;
  CUresult result;
  @api@_status status;
@DECLS@  if (!program) return @API@_ERROR_INVALID_ARGUMENT;
@BUFFERCHECKS@@SIZECHECK@  result = cuCtxGetCurrent(&current);
  if (result != CUDA_SUCCESS) {
    program->last_error = result;
    return @API@_ERROR_CUDA;
  }
  if (current != program->context) return @API@_ERROR_WRONG_CONTEXT;
@BUFFERSIZES@@SCHEDULE@}
)C";

// Emitted only when the schedule launches the kernel (-Wunused-function).
const char *kEnqueue = R"C(/* Each kernel's grid, in blocks. */
static const unsigned int @api@_grid[@API@_KERNELS][3] = {@GRID@};

/* One launch of kernel `kernel` with `parameters`. */
static @api@_status @api@_enqueue(@api@_program *program, CUstream stream, unsigned int kernel, void **parameters) {
  const unsigned int *grid = @api@_grid[kernel], *block = @api@_block[kernel];
  CUresult result = cuLaunchKernel(program->functions[kernel], grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                   0, stream, parameters, NULL);
  if (result != CUDA_SUCCESS) {
    program->last_error = result;
    return @API@_ERROR_CUDA;
  }
  return @API@_OK;
}

)C";

/// Allocates the temporaries at build, sized for the kernel's fixed sizes.
const char *kTemporaries = R"C(  {
    /* The global buffers the kernels pass between them, in bytes. */
    static const size_t bytes[@COUNT@] = {@BYTES@};
    for (s = 0; s < @COUNT@; ++s) {
      result = cuMemAlloc(&p->temporaries[s], bytes[s]);
      if (result != CUDA_SUCCESS) {
        p->temporaries[s] = 0;
        return @api@_build_failed(p, "cuMemAlloc", result, log, log_size);
      }
    }
  }
)C";

} // namespace

ExportedPair exportCuda(const ExportPlan &plan, const std::string &prefix) {
  if (plan.target != codegen::Target::CUDA) throw std::logic_error("exportCuda needs a CUDA kernel");
  for (const PlanStage &stage : plan.stages)
    if (!isCIdentifier(stage.kernelName))
      throw std::invalid_argument("the kernel name '" + stage.kernelName + "' is not a C identifier");
  // Every kernel parameter is a local variable whose address goes into its
  // kernel's parameter array (cuLaunchKernel's convention).
  auto local = [](size_t stage, size_t param) { return "k" + std::to_string(stage) + "_arg" + std::to_string(param); };
  auto parameters = [](size_t stage) { return "k" + std::to_string(stage) + "_parameters"; };
  std::set<std::string> reserved{"program", "stream", "current", "result", "status", "source", "target", "k"};
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    reserved.insert(parameters(s));
    for (size_t p = 0; p < plan.stages[s].params.size(); ++p) reserved.insert(local(s, p));
  }
  HostNames names = hostNames(plan, prefix, "cuda", reserved);
  const std::string &api = names.api, &API = names.API;

  std::string decls, fill, bufferSizes;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    const PlanStage &stage = plan.stages[s];
    for (size_t p = 0; p < stage.params.size(); ++p) {
      decls += std::string(stage.params[p].isSize ? "  int " : "  CUdeviceptr ") + local(s, p) + ";\n";
      // C89-style: filled after the declarations (addresses of locals are not constant initialisers in C89).
      fill += "  " + parameters(s) + "[" + std::to_string(p) + "] = &" + local(s, p) + ";\n";
    }
    decls += "  void *" + parameters(s) + "[" + std::to_string(stage.params.size()) + "];\n";
  }
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].role == Role::Size) continue;
    bufferSizes +=
        "  status = " + api + "_check_buffer(program, " + names.argParam[i] + ", " + names.argMacro[i] + "_BYTES);\n";
    bufferSizes += "  if (status != " + API + "_OK) return status;\n";
  }

  ScheduleHooks hooks;
  hooks.bufferType = "CUdeviceptr";
  hooks.bind = [&](size_t stage, size_t param, bool isSize, const std::string &value, const std::string &indent) {
    return indent + local(stage, param) + " = " + (isSize ? "(int)" : "") + value + ";\n";
  };
  hooks.enqueue = [&](size_t stage, const std::string &) {
    return api + "_enqueue(program, stream, " + std::to_string(stage) + ", " + parameters(stage) + ")";
  };
  hooks.copy = [&](const std::string &from, const std::string &to, const std::string &bytes) {
    return "  result = cuMemcpyDtoDAsync(" + to + ", " + from + ", " + bytes +
           ", stream);\n"
           "  if (result != CUDA_SUCCESS) {\n"
           "    program->last_error = result;\n"
           "    return " +
           API +
           "_ERROR_CUDA;\n"
           "  }\n"
           "  return " +
           API + "_OK;\n";
  };
  hooks.allocateScratch = [&](const std::string &bytes) {
    return "  if (!program->scratch) {\n"
           "    result = cuMemAlloc(&program->scratch, " +
           bytes +
           ");\n"
           "    if (result != CUDA_SUCCESS) {\n"
           "      program->scratch = 0;\n"
           "      program->last_error = result;\n"
           "      return " +
           API +
           "_ERROR_CUDA;\n"
           "    }\n"
           "  }\n";
  };
  // Zero iterations copy the input and never launch: no parameters then (-Wunused-but-set-variable).
  bool launches = launchesKernels(plan);
  if (!launches) decls.clear();
  std::string schedule = (launches ? fill : "") + launchSchedule(plan, names, hooks);

  std::string blocks, grids;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    std::array<int64_t, 3> block = plan.stages[s].cudaBlock(), global = plan.stages[s].roundedGlobal(block), grid{};
    for (int d = 0; d < 3; ++d) grid[d] = global[d] / block[d];
    blocks += (s ? ", " : "") + cArray(block);
    grids += (s ? ", " : "") + cArray(grid);
  }
  std::string temporaryBytes;
  for (size_t t = 0; t < plan.temporaries.size(); ++t)
    temporaryBytes +=
        (t ? ", " : "") + std::to_string(plan.temporaries[t].count * elementBytes(plan.temporaries[t].kind));
  std::string kernelNames;
  for (size_t i = 0; i < plan.stages.size(); ++i)
    kernelNames += (i ? ", \"" : "\"") + escapeC(plan.stages[i].kernelName, CText::Literal) + "\"";
  // The kernel's own options (fast math), one word each, after liftc's.
  std::vector<std::string> extraOptions;
  std::istringstream words(plan.buildOptions);
  for (std::string word; words >> word;) extraOptions.push_back(word);
  std::map<std::string, std::string> values{
      {"api", api},
      {"API", API},
      {"MACROS", sizeAndBufferMacros(plan, names)},
      {"PARAMS", launchParams(plan, names, "CUdeviceptr")},
      {"SOURCE", kernelSourceDefinition(plan, names)},
      {"SOURCEPARTS", std::to_string(literalPieces(plan.source).size())},
      {"KERNELCOUNT", std::to_string(plan.stages.size())},
      {"KERNELNAMES", kernelNames},
      {"TEMPORARYSLOTS", std::to_string(std::max<size_t>(1, plan.temporaries.size()))},
      {"TEMPORARYNOTE",
       plan.temporaries.empty() ? "none: one kernel" : "what the kernels pass between them, allocated at build"},
      {"TEMPORARIES",
       plan.temporaries.empty()
           ? ""
           : substitute(kTemporaries,
                        {{"api", api}, {"COUNT", std::to_string(plan.temporaries.size())}, {"BYTES", temporaryBytes}})},
      {"OPTIONCOUNT", std::to_string(3 + extraOptions.size())},
      {"EXTRAOPTIONS", extraOptionLines(extraOptions)},
      {"BLOCK", blocks},
      {"DECLS", decls},
      {"BUFFERCHECKS", bufferArgumentChecks(plan, names, "0", "  ")},
      {"SIZECHECK", sizeCheck(plan, names, "  ")},
      {"BUFFERSIZES", bufferSizes},
      {"SCHEDULE", schedule},
      {"ENQUEUE", launches ? substitute(kEnqueue, {{"api", api}, {"API", API}, {"GRID", grids}}) : ""},
  };
  ExportedPair pair;
  pair.headerFile = api + ".h";
  pair.sourceFile = api + ".c";
  values["COMMENT"] =
      provenanceComment(plan, pair.headerFile + ": the CUDA kernel and its host code (CUDA driver API).");
  pair.header = substitute(kHeader, values);
  values["COMMENT"] =
      provenanceComment(plan, pair.sourceFile + ": the CUDA kernel and its host code (CUDA driver API).");
  pair.source = substitute(kSource, values);
  return pair;
}

} // namespace liftcc::exporter
