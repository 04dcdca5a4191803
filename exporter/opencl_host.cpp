#include "exporter/opencl_host.h"

#include "exporter/c_text.h"
#include "exporter/template_text.h"

#include <stdexcept>

namespace liftcc::exporter {

namespace {

using Role = codegen::KernelArg::Role;

const char *kHeader = R"C(@COMMENT@
#ifndef @API@_H
#define @API@_H

/* OpenCL 1.2 is all the code below needs; define CL_TARGET_OPENCL_VERSION
 * before including this header to pick another version of the headers. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

@MACROS@
typedef enum @api@_status {
  @API@_OK = 0,
  @API@_ERROR_INVALID_ARGUMENT = 1, /* a null or invalid handle, queue or buffer, or the output aliases an input */
  @API@_ERROR_SIZE_MISMATCH = 2,    /* a size differs from the one the kernel was generated for */
  @API@_ERROR_BUFFER_TOO_SMALL = 3, /* a buffer holds fewer bytes than its _BYTES macro */
  @API@_ERROR_WRONG_CONTEXT = 4,    /* the queue or a buffer belongs to another context or device than the program */
  @API@_ERROR_BUILD_FAILED = 5,     /* the OpenCL compiler rejected the kernel: see the build log */
  @API@_ERROR_DEVICE_LIMITS = 6,    /* the device cannot run the kernel's work-group size */
  @API@_ERROR_OUT_OF_HOST_MEMORY = 7,
  @API@_ERROR_OPENCL = 8            /* another OpenCL call failed: @api@_last_error() has its code */
} @api@_status;

/* The kernel built for one device of one context (opaque). */
typedef struct @api@_program @api@_program;

/* The OpenCL C source of the kernels and the names of their kernel functions,
 * in the order they are launched. */
#define @API@_KERNELS @KERNELCOUNT@
/* The source, in pieces to be put one after another (a C99 compiler need not
 * support longer string literals). */
#define @API@_KERNEL_SOURCE_PARTS @SOURCEPARTS@
extern const char *const @api@_kernel_source[@API@_KERNEL_SOURCE_PARTS];
extern const char *const @api@_kernel_names[@API@_KERNELS];

/* Builds the kernel for `device` of `context` (both are retained until
 * @api@_release). Build once, launch many times. On failure *program is
 * NULL and `log` (when not NULL) receives at most log_size - 1 characters
 * of the compiler's log or of what failed. */
@api@_status @api@_build(cl_context context, cl_device_id device, @api@_program **program, char *log,
                         size_t log_size);

/* Enqueues the whole computation on `queue`, an in-order queue of the
 * program's context and device: reads the inputs and writes the output
 * buffers. Nothing is waited for. When `done` is not NULL it receives the
 * event of the last command enqueued (release it with clReleaseEvent). Each
 * size must equal its macro above and each buffer hold at least its _BYTES.
 * The program's kernel arguments are set here, so one program must not be
 * launched from two threads at once. */
@api@_status @api@_launch(@api@_program *program, cl_command_queue queue@PARAMS@, cl_event *done);

/* Releases the program, its kernels, temporaries and any scratch buffer; NULL is ignored. */
void @api@_release(@api@_program *program);

/* The OpenCL error code of the last call that returned @API@_ERROR_OPENCL. */
cl_int @api@_last_error(const @api@_program *program);

/* A short description of a status. */
const char *@api@_status_string(@api@_status status);

#ifdef __cplusplus
}
#endif

#endif /* @API@_H */
)C";

const char *kSource = R"C(@COMMENT@
#include "@api@.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

@SOURCE@
const char *const @api@_kernel_names[@API@_KERNELS] = {@KERNELNAMES@};

struct @api@_program {
  cl_context context;
  cl_device_id device;
  cl_program program;
  cl_kernel kernels[@API@_KERNELS];
  cl_mem temporaries[@TEMPORARYSLOTS@]; /* @TEMPORARYNOTE@ */
  cl_mem scratch; /* the second buffer of an iteration, created by the first launch that needs it */
  cl_int last_error;
};

@NDRANGE@static void @api@_write_log(char *log, size_t log_size, const char *text) {
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
  case @API@_ERROR_INVALID_ARGUMENT: return "invalid argument (null or invalid handle, queue or buffer, or aliased output)";
  case @API@_ERROR_SIZE_MISMATCH: return "a size differs from the one the kernel was generated for";
  case @API@_ERROR_BUFFER_TOO_SMALL: return "a buffer is too small";
  case @API@_ERROR_WRONG_CONTEXT: return "the queue or a buffer belongs to another context or device than the program";
  case @API@_ERROR_BUILD_FAILED: return "the OpenCL compiler rejected the kernel";
  case @API@_ERROR_DEVICE_LIMITS: return "the device cannot run the kernel's work-group size";
  case @API@_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
  case @API@_ERROR_OPENCL: return "an OpenCL call failed";
  }
  return "unknown status";
}

cl_int @api@_last_error(const @api@_program *program) { return program ? program->last_error : CL_SUCCESS; }

void @api@_release(@api@_program *program) {
  size_t i;
  if (!program) return;
  if (program->scratch) clReleaseMemObject(program->scratch);
  for (i = 0; i < sizeof program->temporaries / sizeof program->temporaries[0]; ++i)
    if (program->temporaries[i]) clReleaseMemObject(program->temporaries[i]);
  for (i = 0; i < @API@_KERNELS; ++i)
    if (program->kernels[i]) clReleaseKernel(program->kernels[i]);
  if (program->program) clReleaseProgram(program->program);
  if (program->device) clReleaseDevice(program->device);
  if (program->context) clReleaseContext(program->context);
  free(program);
}

/* Ends a failed build: says what failed in the log and frees the program. */
static @api@_status @api@_build_failed(@api@_program *program, @api@_status status, const char *what, cl_int error,
                                       char *log, size_t log_size) {
  char text[200];
  snprintf(text, sizeof text, "%s failed with OpenCL error %d", what, (int)error);
  @api@_write_log(log, log_size, text);
  @api@_release(program);
  return status;
}

@api@_status @api@_build(cl_context context, cl_device_id device, @api@_program **program, char *log,
                         size_t log_size) {
  @api@_program *p;
  cl_int error;
  cl_uint s;
  if (log && log_size) log[0] = '\0';
  if (!program) return @API@_ERROR_INVALID_ARGUMENT;
  *program = NULL;
  if (!context || !device) return @API@_ERROR_INVALID_ARGUMENT;
  p = (@api@_program *)calloc(1, sizeof *p);
  if (!p) return @API@_ERROR_OUT_OF_HOST_MEMORY;
  error = clRetainContext(context);
  if (error != CL_SUCCESS)
    return @api@_build_failed(p, @API@_ERROR_INVALID_ARGUMENT, "clRetainContext", error, log, log_size);
  p->context = context;
  error = clRetainDevice(device);
  if (error != CL_SUCCESS)
    return @api@_build_failed(p, @API@_ERROR_INVALID_ARGUMENT, "clRetainDevice", error, log, log_size);
  p->device = device;
  p->program = clCreateProgramWithSource(context, @API@_KERNEL_SOURCE_PARTS, (const char **)@api@_kernel_source, NULL,
                                         &error);
  if (error != CL_SUCCESS)
    return @api@_build_failed(p, @API@_ERROR_OPENCL, "clCreateProgramWithSource", error, log, log_size);
  error = clBuildProgram(p->program, 1, &device, "-cl-std=CL1.2@BUILDOPTIONS@", NULL, NULL);
  if (error == CL_BUILD_PROGRAM_FAILURE) {
    size_t size = 0;
    char *text = NULL;
    if (clGetProgramBuildInfo(p->program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS &&
        (text = (char *)malloc(size + 1)) != NULL &&
        clGetProgramBuildInfo(p->program, device, CL_PROGRAM_BUILD_LOG, size, text, NULL) == CL_SUCCESS) {
      text[size] = '\0';
      @api@_write_log(log, log_size, text);
    } else {
      @api@_write_log(log, log_size, "clBuildProgram failed; no build log");
    }
    free(text);
    @api@_release(p);
    return @API@_ERROR_BUILD_FAILED;
  }
  if (error != CL_SUCCESS) return @api@_build_failed(p, @API@_ERROR_OPENCL, "clBuildProgram", error, log, log_size);
  for (s = 0; s < @API@_KERNELS; ++s) {
    p->kernels[s] = clCreateKernel(p->program, @api@_kernel_names[s], &error);
    if (error != CL_SUCCESS) return @api@_build_failed(p, @API@_ERROR_OPENCL, "clCreateKernel", error, log, log_size);
  }
@LIMITS@@TEMPORARIES@
  *program = p;
  return @API@_OK;
}

/* INVALID_ARGUMENT, WRONG_CONTEXT or BUFFER_TOO_SMALL unless `buffer` is a
 * buffer of the program's context with at least `bytes` bytes. */
static @api@_status @api@_check_buffer(@api@_program *program, cl_mem buffer, size_t bytes) {
  size_t size = 0;
  cl_context context = NULL;
  cl_int error = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL);
  if (error == CL_SUCCESS) error = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof context, &context, NULL);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return error == CL_INVALID_MEM_OBJECT ? @API@_ERROR_INVALID_ARGUMENT : @API@_ERROR_OPENCL;
  }
  if (context != program->context) return @API@_ERROR_WRONG_CONTEXT;
  return size < bytes ? @API@_ERROR_BUFFER_TOO_SMALL : @API@_OK;
}

@HELPERS@@api@_status @api@_launch(@api@_program *program, cl_command_queue queue@PARAMS@, cl_event *done) {
  cl_context context = NULL;
  cl_device_id device = NULL;
  cl_int error;
  @api@_status status;
  if (done) *done = NULL;
  if (!program || !queue) return @API@_ERROR_INVALID_ARGUMENT;
@BUFFERCHECKS@@SIZECHECK@  error = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL);
  if (error == CL_SUCCESS) error = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return error == CL_INVALID_COMMAND_QUEUE ? @API@_ERROR_INVALID_ARGUMENT : @API@_ERROR_OPENCL;
  }
  if (context != program->context || device != program->device) return @API@_ERROR_WRONG_CONTEXT;
@BUFFERSIZES@@SCHEDULE@}
)C";

// Helpers of the launch function, emitted only where used (-Wunused-function).
const char *kNDRange = R"C(/* Each kernel's NDRange: work-items per dimension, rounded up to its
 * work-group size ({0, 0, 0}: the OpenCL runtime picks one). */
static const cl_uint @api@_dims[@API@_KERNELS] = {@DIMS@};
static const size_t @api@_global[@API@_KERNELS][3] = {@GLOBAL@};
static const size_t @api@_local[@API@_KERNELS][3] = {@LOCAL@};

)C";

const char *kSetBuffer =
    R"C(static @api@_status @api@_set_buffer(@api@_program *program, cl_uint kernel, cl_uint index, cl_mem buffer) {
  cl_int error = clSetKernelArg(program->kernels[kernel], index, sizeof buffer, &buffer);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return @API@_ERROR_OPENCL;
  }
  return @API@_OK;
}

)C";

const char *kSetSize =
    R"C(static @api@_status @api@_set_size(@api@_program *program, cl_uint kernel, cl_uint index, int64_t value) {
  cl_int size = (cl_int)value;
  cl_int error = clSetKernelArg(program->kernels[kernel], index, sizeof size, &size);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return @API@_ERROR_OPENCL;
  }
  return @API@_OK;
}

)C";

const char *kEnqueue = R"C(/* One launch of kernel `kernel` with the arguments set so far. */
static @api@_status @api@_enqueue(@api@_program *program, cl_command_queue queue, cl_uint kernel, cl_event *event) {
  const size_t *local = @api@_local[kernel][0] ? @api@_local[kernel] : NULL;
  cl_int error = clEnqueueNDRangeKernel(queue, program->kernels[kernel], @api@_dims[kernel], NULL, @api@_global[kernel],
                                        local, 0, NULL, event);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return @API@_ERROR_OPENCL;
  }
  return @API@_OK;
}

)C";

/// Checks each kernel's work-group size against the device's limits for it.
const char *kLimitsCheck = R"C(  {
    /* The tuned work-group sizes must fit this device. */
    size_t most = 0, items[16];
    cl_uint d;
    char text[200];
    error = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
    if (error != CL_SUCCESS)
      return @api@_build_failed(p, @API@_ERROR_OPENCL, "clGetDeviceInfo", error, log, log_size);
    for (s = 0; s < @API@_KERNELS; ++s) {
      if (@api@_local[s][0] == 0) continue;
      error = clGetKernelWorkGroupInfo(p->kernels[s], device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL);
      if (error != CL_SUCCESS)
        return @api@_build_failed(p, @API@_ERROR_OPENCL, "clGetKernelWorkGroupInfo", error, log, log_size);
      for (d = 0; d < @api@_dims[s]; ++d)
        if (@api@_local[s][d] > items[d]) most = 0;
      if (@api@_local[s][0] * @api@_local[s][1] * @api@_local[s][2] > most) {
        snprintf(text, sizeof text, "the work-group size %lu x %lu x %lu does not fit this device (at most %lu work-items)",
                 (unsigned long)@api@_local[s][0], (unsigned long)@api@_local[s][1], (unsigned long)@api@_local[s][2],
                 (unsigned long)most);
        @api@_write_log(log, log_size, text);
        @api@_release(p);
        return @API@_ERROR_DEVICE_LIMITS;
      }
    }
  }
)C";

/// Creates the temporaries at build, sized for the kernel's fixed sizes.
const char *kTemporaries = R"C(  {
    /* The global buffers the kernels pass between them, in bytes. */
    static const size_t bytes[@COUNT@] = {@BYTES@};
    for (s = 0; s < @COUNT@; ++s) {
      p->temporaries[s] = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes[s], NULL, &error);
      if (error != CL_SUCCESS) {
        p->temporaries[s] = NULL;
        return @api@_build_failed(p, @API@_ERROR_OPENCL, "clCreateBuffer", error, log, log_size);
      }
    }
  }
)C";

/// "{a, b, c}"-style rows joined for a C table of one entry per kernel.
template <typename Row> std::string tableRows(const ExportPlan &plan, const Row &row) {
  std::string text;
  for (size_t i = 0; i < plan.stages.size(); ++i) text += (i ? ", " : "") + row(plan.stages[i]);
  return text;
}

} // namespace

ExportedPair exportOpenCL(const ExportPlan &plan, const std::string &prefix) {
  if (plan.target != codegen::Target::OpenCL) throw std::logic_error("exportOpenCL needs an OpenCL kernel");
  for (const PlanStage &stage : plan.stages)
    if (!isCIdentifier(stage.kernelName))
      throw std::invalid_argument("the kernel name '" + stage.kernelName + "' is not a C identifier");
  HostNames names =
      hostNames(plan, prefix, "opencl",
                {"program", "queue", "done", "context", "device", "error", "status", "source", "target", "k"});
  const std::string &api = names.api, &API = names.API;

  std::string bufferSizes;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    if (plan.args[i].role == Role::Size) continue;
    bufferSizes +=
        "  status = " + api + "_check_buffer(program, " + names.argParam[i] + ", " + names.argMacro[i] + "_BYTES);\n";
    bufferSizes += "  if (status != " + API + "_OK) return status;\n";
  }

  bool setsSizes = false;
  ScheduleHooks hooks;
  hooks.bufferType = "cl_mem";
  hooks.bind = [&](size_t stage, size_t param, bool isSize, const std::string &value, const std::string &indent) {
    setsSizes = setsSizes || isSize;
    return indent + "status = " + api + (isSize ? "_set_size(program, " : "_set_buffer(program, ") +
           std::to_string(stage) + ", " + std::to_string(param) + ", " + value + ");\n" + indent +
           "if (status != " + API + "_OK) return status;\n";
  };
  hooks.enqueue = [&](size_t stage, const std::string &event) {
    return api + "_enqueue(program, queue, " + std::to_string(stage) + ", " + event + ")";
  };
  hooks.copy = [&](const std::string &from, const std::string &to, const std::string &bytes) {
    return "  error = clEnqueueCopyBuffer(queue, " + from + ", " + to + ", 0, 0, " + bytes +
           ", 0, NULL, done);\n"
           "  if (error != CL_SUCCESS) {\n"
           "    program->last_error = error;\n"
           "    return " +
           API +
           "_ERROR_OPENCL;\n"
           "  }\n"
           "  return " +
           API + "_OK;\n";
  };
  hooks.allocateScratch = [&](const std::string &bytes) {
    return "  if (!program->scratch) {\n"
           "    program->scratch = clCreateBuffer(program->context, CL_MEM_READ_WRITE, " +
           bytes +
           ", NULL, &error);\n"
           "    if (error != CL_SUCCESS) {\n"
           "      program->scratch = NULL;\n"
           "      program->last_error = error;\n"
           "      return " +
           API +
           "_ERROR_OPENCL;\n"
           "    }\n"
           "  }\n";
  };
  std::string schedule = launchSchedule(plan, names, hooks);

  // Only the helpers the schedule calls (an unused static function is a warning).
  bool launches = launchesKernels(plan);
  std::string helpers =
      std::string(launches ? kSetBuffer : "") + (setsSizes ? kSetSize : "") + (launches ? kEnqueue : "");
  bool anyLocal = false;
  for (const PlanStage &stage : plan.stages) anyLocal = anyLocal || stage.localSize.has_value();

  std::string temporaryBytes;
  for (size_t t = 0; t < plan.temporaries.size(); ++t)
    temporaryBytes +=
        (t ? ", " : "") + std::to_string(plan.temporaries[t].count * elementBytes(plan.temporaries[t].kind));
  std::string kernelNames;
  for (size_t i = 0; i < plan.stages.size(); ++i)
    kernelNames += (i ? ", \"" : "\"") + escapeC(plan.stages[i].kernelName, CText::Literal) + "\"";

  std::map<std::string, std::string>
      values{
          {"api", api},
          {"API", API},
          {"MACROS", sizeAndBufferMacros(plan, names)},
          {"PARAMS", launchParams(plan, names, "cl_mem")},
          {"SOURCE", kernelSourceDefinition(plan, names)},
          {"SOURCEPARTS", std::to_string(literalPieces(plan.source).size())},
          {"KERNELCOUNT", std::to_string(plan.stages.size())},
          {"KERNELNAMES", kernelNames},
          {"TEMPORARYSLOTS", std::to_string(std::max<size_t>(1, plan.temporaries.size()))},
          {"TEMPORARYNOTE",
           plan.temporaries.empty() ? "none: one kernel" : "what the kernels pass between them, created at build"},
          {"TEMPORARIES", plan.temporaries.empty()
                              ? ""
                              : substitute(kTemporaries, {{"api", api},
                                                          {"API", API},
                                                          {"COUNT", std::to_string(plan.temporaries.size())},
                                                          {"BYTES", temporaryBytes}})},
          {"BUILDOPTIONS", plan.buildOptions.empty() ? "" : " " + escapeC(plan.buildOptions, CText::Literal)},
          {"LIMITS", launches && anyLocal ? substitute(kLimitsCheck, {{"api", api}, {"API", API}}) : ""},
          {"BUFFERCHECKS", bufferArgumentChecks(plan, names, "NULL", "  ")},
          {"SIZECHECK", sizeCheck(plan, names, "  ")},
          {"BUFFERSIZES", bufferSizes},
          {"SCHEDULE", schedule},
          {"NDRANGE",
           launches
               ? substitute(
                     kNDRange,
                     {{"api", api},
                      {"API", API},
                      {"DIMS", tableRows(plan, [](const PlanStage &st) { return std::to_string(st.dims); })},
                      {"GLOBAL",
                       tableRows(
                           plan,
                           [](const PlanStage &st) {
                             return cArray(st.roundedGlobal(st.localSize.value_or(std::array<int64_t, 3>{1, 1, 1})));
                           })},
                      {"LOCAL", tableRows(plan,
                                          [](const PlanStage &st) {
                                            return cArray(st.localSize.value_or(std::array<int64_t, 3>{0, 0, 0}));
                                          })}})
               : "/* Zero iterations: the kernel is never launched. */\n"},
          {"HELPERS", substitute(helpers, {{"api", api}, {"API", API}})},
      };
  ExportedPair pair;
  pair.headerFile = api + ".h";
  pair.sourceFile = api + ".c";
  values["COMMENT"] = provenanceComment(plan, pair.headerFile + ": the OpenCL kernel and its host code.");
  pair.header = substitute(kHeader, values);
  values["COMMENT"] = provenanceComment(plan, pair.sourceFile + ": the OpenCL kernel and its host code.");
  pair.source = substitute(kSource, values);
  return pair;
}

} // namespace liftcc::exporter
