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

/* The OpenCL C source of the kernel and the name of its kernel function. */
extern const char @api@_kernel_source[];
extern const char @api@_kernel_name[];

/* Builds the kernel for `device` of `context` (both are retained until
 * @api@_release). Build once, launch many times. On failure *program is
 * NULL and `log` (when not NULL) receives at most log_size - 1 characters
 * of the compiler's log or of what failed. */
@api@_status @api@_build(cl_context context, cl_device_id device, @api@_program **program, char *log,
                         size_t log_size);

/* Enqueues the whole computation on `queue`, which must belong to the
 * program's context and device: reads the inputs and writes the output
 * buffer. Nothing is waited for. When `done` is not NULL it receives the
 * event of the last command enqueued (release it with clReleaseEvent). Each
 * size must equal its macro above and each buffer hold at least its _BYTES.
 * The program's kernel arguments are set here, so one program must not be
 * launched from two threads at once. */
@api@_status @api@_launch(@api@_program *program, cl_command_queue queue@PARAMS@, cl_event *done);

/* Releases the program, its kernel and any scratch buffer; NULL is ignored. */
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

const char @api@_kernel_source[] =
@SOURCE@;

const char @api@_kernel_name[] = "@KERNEL@";

struct @api@_program {
  cl_context context;
  cl_device_id device;
  cl_program program;
  cl_kernel kernel;
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
  if (!program) return;
  if (program->scratch) clReleaseMemObject(program->scratch);
  if (program->kernel) clReleaseKernel(program->kernel);
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
  const char *sources[1];
  cl_int error;
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
  sources[0] = @api@_kernel_source;
  p->program = clCreateProgramWithSource(context, 1, sources, NULL, &error);
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
  p->kernel = clCreateKernel(p->program, @api@_kernel_name, &error);
  if (error != CL_SUCCESS) return @api@_build_failed(p, @API@_ERROR_OPENCL, "clCreateKernel", error, log, log_size);
@LIMITS@
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
@BUFFERSIZES@@SETARGS@@SCHEDULE@}
)C";

// Helpers of the launch function, emitted only where used (-Wunused-function).
const char *kNDRange = R"C(/* The NDRange: work-items per dimension, rounded up to the work-group size. */
static const cl_uint @api@_dims = @DIMS@;
static const size_t @api@_global[3] = @GLOBAL@;
@LOCAL@
)C";

const char *kSetBuffer =
    R"C(static @api@_status @api@_set_buffer(@api@_program *program, cl_uint index, cl_mem buffer) {
  cl_int error = clSetKernelArg(program->kernel, index, sizeof buffer, &buffer);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return @API@_ERROR_OPENCL;
  }
  return @API@_OK;
}

)C";

const char *kSetSize = R"C(static @api@_status @api@_set_size(@api@_program *program, cl_uint index, int64_t value) {
  cl_int size = (cl_int)value;
  cl_int error = clSetKernelArg(program->kernel, index, sizeof size, &size);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return @API@_ERROR_OPENCL;
  }
  return @API@_OK;
}

)C";

const char *kEnqueue = R"C(/* One launch of the kernel with the arguments set so far. */
static @api@_status @api@_enqueue(@api@_program *program, cl_command_queue queue, cl_event *event) {
  cl_int error = clEnqueueNDRangeKernel(queue, program->kernel, @api@_dims, NULL, @api@_global, @LOCALARG@, 0, NULL, event);
  if (error != CL_SUCCESS) {
    program->last_error = error;
    return @API@_ERROR_OPENCL;
  }
  return @API@_OK;
}

)C";

/// Checks the tuned work-group size against the device's limits for this kernel.
std::string limitsCheck(const ExportPlan &plan, const std::string &api, const std::string &API) {
  if (!plan.localSize) return "";
  std::string text = R"C(  {
    /* The tuned work-group size must fit this device. */
    size_t most = 0, items[16];
    cl_uint d;
    char text[200];
    error = clGetKernelWorkGroupInfo(p->kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL);
    if (error != CL_SUCCESS)
      return @api@_build_failed(p, @API@_ERROR_OPENCL, "clGetKernelWorkGroupInfo", error, log, log_size);
    error = clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL);
    if (error != CL_SUCCESS)
      return @api@_build_failed(p, @API@_ERROR_OPENCL, "clGetDeviceInfo", error, log, log_size);
    for (d = 0; d < @api@_dims; ++d)
      if (@api@_local[d] > items[d]) most = 0;
    if (@api@_local[0] * @api@_local[1] * @api@_local[2] > most) {
      snprintf(text, sizeof text, "the work-group size %lu x %lu x %lu does not fit this device (at most %lu work-items)",
               (unsigned long)@api@_local[0], (unsigned long)@api@_local[1], (unsigned long)@api@_local[2],
               (unsigned long)most);
      @api@_write_log(log, log_size, text);
      @api@_release(p);
      return @API@_ERROR_DEVICE_LIMITS;
    }
  }
)C";
  return substitute(text, {{"api", api}, {"API", API}});
}

} // namespace

ExportedPair exportOpenCL(const ExportPlan &plan, const std::string &prefix) {
  if (plan.target != codegen::Target::OpenCL) throw std::logic_error("exportOpenCL needs an OpenCL kernel");
  HostNames names = hostNames(plan, prefix, "opencl", {"program", "queue", "done"});
  const std::string &api = names.api, &API = names.API;
  std::string status = api + "_status";

  std::string bufferSizes, setArgs, schedule;
  size_t output = plan.outputArg();
  std::optional<size_t> iterated;
  if (plan.iteration) iterated = plan.iteration->inputArg;
  for (size_t i = 0; i < plan.args.size(); ++i) {
    const PlanArg &a = plan.args[i];
    std::string index = std::to_string(i);
    if (a.role == Role::Size) {
      setArgs += "  status = " + api + "_set_size(program, " + index + ", " + names.argParam[i] + ");\n";
      setArgs += "  if (status != " + API + "_OK) return status;\n";
      continue;
    }
    bufferSizes +=
        "  status = " + api + "_check_buffer(program, " + names.argParam[i] + ", " + names.argMacro[i] + "_BYTES);\n";
    bufferSizes += "  if (status != " + API + "_OK) return status;\n";
    if (i == output || (iterated && i == *iterated)) continue; // set per launch below
    setArgs += "  status = " + api + "_set_buffer(program, " + index + ", " + names.argParam[i] + ");\n";
    setArgs += "  if (status != " + API + "_OK) return status;\n";
  }
  std::string in = iterated ? names.argParam[*iterated] : "", out = names.argParam[output];
  std::string inIndex = iterated ? std::to_string(*iterated) : "", outIndex = std::to_string(output);
  if (!plan.iteration) {
    schedule = "  status = " + api + "_set_buffer(program, " + outIndex + ", " + out +
               ");\n"
               "  if (status != " +
               API +
               "_OK) return status;\n"
               "  return " +
               api + "_enqueue(program, queue, done);\n";
  } else if (plan.iteration->count == 0) {
    schedule = "  /* Zero iterations: the result is the input. */\n"
               "  error = clEnqueueCopyBuffer(queue, " +
               in + ", " + out + ", 0, 0, " + names.argMacro[output] +
               "_BYTES, 0, NULL, done);\n"
               "  if (error != CL_SUCCESS) {\n"
               "    program->last_error = error;\n"
               "    return " +
               API +
               "_ERROR_OPENCL;\n"
               "  }\n"
               "  return " +
               API + "_OK;\n";
  } else {
    std::string count = std::to_string(plan.iteration->count);
    if (plan.iteration->count >= 2)
      schedule += "  if (!program->scratch) {\n"
                  "    program->scratch = clCreateBuffer(program->context, CL_MEM_READ_WRITE, " +
                  names.argMacro[output] +
                  "_BYTES, NULL, &error);\n"
                  "    if (error != CL_SUCCESS) {\n"
                  "      program->scratch = NULL;\n"
                  "      program->last_error = error;\n"
                  "      return " +
                  API +
                  "_ERROR_OPENCL;\n"
                  "    }\n"
                  "  }\n";
    schedule += "  {\n"
                "    /* " +
                count +
                " launches, each reading what the previous one wrote; the targets alternate\n"
                "     * between the scratch buffer and the output so that the last launch writes the output and\n"
                "     * the input is never written. */\n"
                "    cl_mem source = " +
                in +
                ", target;\n"
                "    int64_t k;\n"
                "    for (k = 0; k < " +
                count +
                "; ++k) {\n"
                "      target = (" +
                count + " - 1 - k) % 2 == 0 ? " + out +
                " : program->scratch;\n"
                "      status = " +
                api + "_set_buffer(program, " + inIndex +
                ", source);\n"
                "      if (status == " +
                API + "_OK) status = " + api + "_set_buffer(program, " + outIndex +
                ", target);\n"
                "      if (status == " +
                API + "_OK) status = " + api + "_enqueue(program, queue, k == " + count +
                " - 1 ? done : NULL);\n"
                "      if (status != " +
                API +
                "_OK) return status;\n"
                "      source = target;\n"
                "    }\n"
                "  }\n"
                "  return " +
                API + "_OK;\n";
  }

  // Only the helpers the schedule calls (an unused static function is a warning).
  bool hasSizes = false;
  for (const PlanArg &a : plan.args) hasSizes = hasSizes || a.role == Role::Size;
  bool launches = !plan.iteration || plan.iteration->count > 0;
  bool setsBuffers = launches || setArgs.find("_set_buffer(") != std::string::npos;
  std::string helpers =
      std::string(setsBuffers ? kSetBuffer : "") + (hasSizes ? kSetSize : "") + (launches ? kEnqueue : "");

  std::string local, localArg = "NULL";
  if (plan.localSize) {
    local = "static const size_t " + api + "_local[3] = " + cArray(*plan.localSize) + ";\n";
    localArg = api + "_local";
  } else {
    local = "/* No work-group size: the OpenCL runtime picks one. */\n";
  }
  std::map<std::string, std::string> values{
      {"api", api},
      {"API", API},
      {"MACROS", sizeAndBufferMacros(plan, names)},
      {"PARAMS", launchParams(plan, names, "cl_mem")},
      {"SOURCE", cStringLiteral(plan.source, "    ")},
      {"KERNEL", escapeC(plan.kernelName, CText::Literal)},
      {"BUILDOPTIONS", plan.buildOptions.empty() ? "" : " " + escapeC(plan.buildOptions, CText::Literal)},
      {"LOCALARG", localArg},
      {"LIMITS", launches ? limitsCheck(plan, api, API) : ""},
      {"BUFFERCHECKS", bufferArgumentChecks(plan, names, "NULL", "  ")},
      {"SIZECHECK", sizeCheck(plan, names, "  ")},
      {"BUFFERSIZES", bufferSizes},
      {"SETARGS", setArgs},
      {"SCHEDULE", schedule},
      {"NDRANGE", launches ? substitute(kNDRange, {{"api", api},
                                                   {"DIMS", std::to_string(plan.dims)},
                                                   {"GLOBAL", cArray(plan.roundedGlobal(plan.localSize.value_or(
                                                                  std::array<int64_t, 3>{1, 1, 1})))},
                                                   {"LOCAL", local}})
                           : "/* Zero iterations: the kernel is never launched. */\n"},
      {"HELPERS", substitute(helpers, {{"api", api}, {"API", API}, {"LOCALARG", localArg}})},
  };
  if (!isCIdentifier(plan.kernelName))
    throw std::invalid_argument("the kernel name '" + plan.kernelName + "' is not a C identifier");
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
