/* srad_app: a plain C application that runs the two-kernel SRAD step
 * (examples/json/srad_two_stage.json: a diffusion coefficient per pixel, then
 * the update that reads it) exported by `liftc export`. The exported program
 * creates the global temporary between the two kernels once, at build, and
 * launches both kernels in order on the application's buffers.
 *
 *   liftc export results/best/<device>/srad_two_stage/N=512,M=512 --out exported
 *     (or, untuned: liftc export examples/json/srad_two_stage.json --target opencl
 *                    --size N=512,M=512 --opt plain --out exported)
 *   cc -std=c99 -O2 -I exported examples/app/srad_app.c exported/srad_two_stage_opencl.c -lOpenCL -o srad_app
 *   ./srad_app INPUT.bin OUTPUT.bin [STEPS]
 *
 * INPUT.bin holds the N x M image J as raw float32, row-major (what
 * `liftc eval --input J=INPUT.bin` reads; SRAD divides by the intensity, so
 * keep it positive); OUTPUT.bin receives the image after STEPS steps
 * (default 1), each step's output being the next step's input. */

#include "srad_two_stage_opencl.h"

#include <stdio.h>
#include <stdlib.h>

static int read_file(const char *path, void *data, size_t bytes) {
  FILE *file = fopen(path, "rb");
  size_t got;
  int extra;
  if (!file) return 0;
  got = fread(data, 1, bytes, file);
  extra = fgetc(file);
  fclose(file);
  return got == bytes && extra == EOF;
}

static int write_file(const char *path, const void *data, size_t bytes) {
  FILE *file = fopen(path, "wb");
  int ok;
  if (!file) return 0;
  ok = fwrite(data, 1, bytes, file) == bytes;
  return fclose(file) == 0 && ok;
}

int main(int argc, char **argv) {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context = NULL;
  cl_command_queue queue = NULL;
  cl_mem images[2] = {NULL, NULL};
  cl_event done = NULL;
  cl_int error;
  char log[4096];
  srad_two_stage_opencl_program *program = NULL;
  srad_two_stage_opencl_status status = SRAD_TWO_STAGE_OPENCL_OK;
  float *image = NULL;
  long steps = 1, step;
  int exit_code = 1;

  if (argc < 3 || argc > 4 || (argc == 4 && (steps = strtol(argv[3], NULL, 10)) < 1)) {
    fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin [STEPS >= 1]\n", argv[0]);
    return 2;
  }
  image = (float *)malloc(SRAD_TWO_STAGE_OPENCL_J_BYTES);
  if (!image) {
    fprintf(stderr, "srad_app: out of memory\n");
    return 1;
  }
  if (!read_file(argv[1], image, SRAD_TWO_STAGE_OPENCL_J_BYTES)) {
    fprintf(stderr, "srad_app: %s must hold exactly %lu bytes (%d x %d floats)\n", argv[1],
            (unsigned long)SRAD_TWO_STAGE_OPENCL_J_BYTES, SRAD_TWO_STAGE_OPENCL_N, SRAD_TWO_STAGE_OPENCL_M);
    goto cleanup;
  }

  error = clGetPlatformIDs(1, &platform, NULL);
  if (error == CL_SUCCESS) error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (error == CL_SUCCESS) context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  if (error == CL_SUCCESS) queue = clCreateCommandQueue(context, device, 0, &error);
  /* Two images: each step reads one and writes the other. */
  if (error == CL_SUCCESS)
    images[0] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SRAD_TWO_STAGE_OPENCL_J_BYTES, image,
                               &error);
  if (error == CL_SUCCESS)
    images[1] = clCreateBuffer(context, CL_MEM_READ_WRITE, SRAD_TWO_STAGE_OPENCL_OUT_BYTES, NULL, &error);
  if (error != CL_SUCCESS) {
    fprintf(stderr, "srad_app: setting up OpenCL failed (%d)\n", (int)error);
    goto cleanup;
  }

  /* Build once: both kernels and the temporary between them. */
  status = srad_two_stage_opencl_build(context, device, &program, log, sizeof log);
  if (status != SRAD_TWO_STAGE_OPENCL_OK) {
    fprintf(stderr, "srad_app: build: %s\n%s\n", srad_two_stage_opencl_status_string(status), log);
    goto cleanup;
  }
  /* The queue is in order: each launch sees what the one before it wrote. */
  for (step = 0; step < steps && status == SRAD_TWO_STAGE_OPENCL_OK; ++step) {
    if (done) clReleaseEvent(done);
    status = srad_two_stage_opencl_launch(program, queue, images[step % 2], images[(step + 1) % 2],
                                          SRAD_TWO_STAGE_OPENCL_N, SRAD_TWO_STAGE_OPENCL_M, &done);
  }
  if (status != SRAD_TWO_STAGE_OPENCL_OK) {
    fprintf(stderr, "srad_app: launch: %s (OpenCL error %d)\n", srad_two_stage_opencl_status_string(status),
            (int)srad_two_stage_opencl_last_error(program));
    goto cleanup;
  }
  error = clEnqueueReadBuffer(queue, images[steps % 2], CL_TRUE, 0, SRAD_TWO_STAGE_OPENCL_OUT_BYTES, image, 1, &done,
                              NULL);
  if (error != CL_SUCCESS) {
    fprintf(stderr, "srad_app: reading the result failed (%d)\n", (int)error);
    goto cleanup;
  }
  if (!write_file(argv[2], image, SRAD_TWO_STAGE_OPENCL_OUT_BYTES)) {
    fprintf(stderr, "srad_app: cannot write %s\n", argv[2]);
    goto cleanup;
  }
  printf("srad_two_stage %d x %d: %ld step(s) of %d kernels\n", SRAD_TWO_STAGE_OPENCL_N, SRAD_TWO_STAGE_OPENCL_M,
         steps, SRAD_TWO_STAGE_OPENCL_KERNELS);
  exit_code = 0;

cleanup:
  if (done) clReleaseEvent(done);
  srad_two_stage_opencl_release(program);
  if (images[1]) clReleaseMemObject(images[1]);
  if (images[0]) clReleaseMemObject(images[0]);
  if (queue) clReleaseCommandQueue(queue);
  if (context) clReleaseContext(context);
  free(image);
  return exit_code;
}
