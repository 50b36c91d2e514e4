/* An AVX2-only CPU on a newer x86 CPU, for benchmarks: LD_PRELOAD this library and every CPUID the
 * process executes afterwards answers without AVX-512, AVX-VNNI, AVX-VNNI-INT8/INT16, AVX-NE-CONVERT
 * and AMX, so ONNX Runtime's MLAS, numpy, oneDNN/MKL (CTranslate2) and anything else that dispatches
 * on CPUID take the code paths they take on an AVX2 + FMA CPU (Haswell to Zen 3), at native speed.
 *
 *   gcc -O2 -shared -fPIC -o avx2_only.so benchmarks/avx2_only.c
 *   LD_PRELOAD=$PWD/avx2_only.so python ...
 *
 * How: Linux's CPUID faulting (arch_prctl(ARCH_SET_CPUID, 0); the CPU needs the "cpuid_fault" flag of
 * /proc/cpuinfo, which Intel CPUs since Ivy Bridge and KVM guests on them have) turns each CPUID
 * instruction into a SIGSEGV; the handler below runs the real CPUID with faulting briefly off, clears
 * the feature bits, writes the registers and steps over the instruction. The setting is per thread
 * and inherited by threads created later (the constructor runs before any), reset by execve (a child
 * that keeps LD_PRELOAD sets it again). Code that reads XCR0 (xgetbv) still sees the AVX-512 state
 * enabled by the OS; every library checks the CPUID bits as well, so none of them uses AVX-512.
 * Programs that install their own SIGSEGV handler afterwards (Python's faulthandler, as pytest
 * enables it) would break the emulation: use it for benchmark processes only.
 *
 * FANYI_AVX2_ONLY_QUIET=1 silences the line it prints on stderr when it is active.
 */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <cpuid.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static long arch_prctl_(int code, unsigned long arg) { return syscall(SYS_arch_prctl, code, arg); }

static void masked_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]) {
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    if (leaf == 7 && sub == 0) {
        /* EBX: AVX512F 16, DQ 17, IFMA 21, PF 26, ER 27, CD 28, BW 30, VL 31 */
        r[1] &= ~((1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) |
                  (1u << 31));
        /* ECX: AVX512_VBMI 1, VBMI2 6, AVX512_VNNI 11, BITALG 12, VPOPCNTDQ 14 */
        r[2] &= ~((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14));
        /* EDX: 4VNNIW 2, 4FMAPS 3, VP2INTERSECT 8, AMX_BF16 22, AVX512_FP16 23, AMX_TILE 24, AMX_INT8 25 */
        r[3] &= ~((1u << 2) | (1u << 3) | (1u << 8) | (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25));
    } else if (leaf == 7 && sub == 1) {
        /* EAX: AVX_VNNI 4, AVX512_BF16 5, AMX_FP16 21, AVX_IFMA 23 */
        r[0] &= ~((1u << 4) | (1u << 5) | (1u << 21) | (1u << 23));
        /* EDX: AVX_VNNI_INT8 4, AVX_NE_CONVERT 5, AMX_COMPLEX 8, AVX_VNNI_INT16 10, AVX10 19 */
        r[3] &= ~((1u << 4) | (1u << 5) | (1u << 8) | (1u << 10) | (1u << 19));
    } else if (leaf == 0x24) {
        r[0] = r[1] = r[2] = r[3] = 0; /* AVX10 */
    }
}

static void on_segv(int sig, siginfo_t *info, void *context) {
    ucontext_t *uc = (ucontext_t *)context;
    greg_t *g = uc->uc_mcontext.gregs;
    const uint8_t *ip = (const uint8_t *)g[REG_RIP];
    if (ip[0] != 0x0f || ip[1] != 0xa2) { /* not CPUID: a real fault */
        signal(sig, SIG_DFL);
        (void)info;
        return; /* the instruction faults again, now fatally */
    }
    uint32_t r[4];
    arch_prctl_(ARCH_SET_CPUID, 1);
    masked_cpuid((uint32_t)g[REG_RAX], (uint32_t)g[REG_RCX], r);
    arch_prctl_(ARCH_SET_CPUID, 0);
    g[REG_RAX] = r[0];
    g[REG_RBX] = r[1];
    g[REG_RCX] = r[2];
    g[REG_RDX] = r[3];
    g[REG_RIP] += 2;
}

__attribute__((constructor)) static void avx2_only(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0 || arch_prctl_(ARCH_SET_CPUID, 0) != 0) {
        fprintf(stderr, "avx2_only: CPUID faulting is not available on this CPU; nothing is masked\n");
        return;
    }
    const char *quiet = getenv("FANYI_AVX2_ONLY_QUIET");
    if (!quiet || strcmp(quiet, "1") != 0) {
        fprintf(stderr, "avx2_only: CPUID reports AVX2 without AVX-512, VNNI or AMX in process %d\n", (int)getpid());
    }
}
