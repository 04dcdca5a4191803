#!/usr/bin/env bash
# Installs the Debian packages that liftcc needs and that are missing, so that
# the README's two commands are the whole set-up on a fresh Debian 12 machine.
# One list for everything: tools/main-job.sh, tools/test.sh and .ci/run call it.
#
#   tools/install-deps.sh main   # building liftc and running it on PoCL
#   tools/install-deps.sh test   # + the test suite (doctest, Slurm, schema, install tests)
#
# As root it runs apt-get itself (sudo where CI runs without root); otherwise
# it names the missing packages in one line and exits 2, installing nothing.
set -euo pipefail

# cmake, g++, make: the build; nlohmann-json3-dev: the JSON programs and
# stores; ocl-icd-opencl-dev, opencl-headers, pocl-opencl-icd: OpenCL and the
# CPU device every kernel runs on.
main_packages=(cmake g++ make nlohmann-json3-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd)
# doctest-dev: the suite; slurm-wlm, munge: the Slurm test; python3-pip: the
# Kernel Tuner peer; pkg-config and python3-jsonschema: the install and schema suites.
test_packages=(doctest-dev slurm-wlm munge python3 python3-pip pkg-config python3-jsonschema)

case "${1:-}" in
main) wanted=("${main_packages[@]}") ;;
test) wanted=("${main_packages[@]}" "${test_packages[@]}") ;;
*)
  echo "usage: $0 main|test" >&2
  exit 2
  ;;
esac

missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
((${#missing[@]} == 0)) && exit 0

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  # CI may run as a user with password-less sudo; a person is asked instead.
  if [[ ${CI:-} == true ]] && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "liftcc needs these Debian packages: ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 2
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
