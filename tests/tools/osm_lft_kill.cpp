// libweft_osm_lft_kill.so: preloaded into OpenSM by the lab tests (before libumad2sim.so) to kill
// OpenSM in the middle of distributing a routing, at a point the test chooses. Armed by the file
// WEFT_TEST_LFT_KILL_ARM: while that file exists, OpenSM counts the LinearForwardingTable Sets
// it sends, and right after sending the WEFT_TEST_LFT_KILL_AFTER-th (1 if unset) it writes
// "killed after N LFT blocks" into the file and sends itself SIGKILL, as a power cut or the OOM
// killer would. Without the file it only passes every MAD on to libibumad.

#include <infiniband/umad.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using UmadSend = int (*)(int, int, void *, int, int, int);

constexpr unsigned char kSubnClassLid = 0x01;       // LID-routed SMP
constexpr unsigned char kSubnClassDirected = 0x81;  // directed-route SMP
constexpr unsigned char kMethodSet = 0x02;
constexpr unsigned kAttrLinearForwardingTable = 0x0019;

int sentSets = 0;

bool isLftSet(void *umad, int length)
{
    if (length < 24)
        return false;
    const auto *mad = static_cast<const unsigned char *>(umad_get_mad(umad));
    const unsigned attribute = (unsigned(mad[16]) << 8) | mad[17];
    return (mad[1] == kSubnClassLid || mad[1] == kSubnClassDirected) && mad[3] == kMethodSet
        && attribute == kAttrLinearForwardingTable;
}

}  // namespace

extern "C" int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms, int retries)
{
    static const auto real = reinterpret_cast<UmadSend>(dlsym(RTLD_NEXT, "umad_send"));
    const int result = real(fd, agentid, umad, length, timeout_ms, retries);
    const char *arm = std::getenv("WEFT_TEST_LFT_KILL_ARM");
    if (result != 0 || !arm || access(arm, F_OK) != 0 || !isLftSet(umad, length))
        return result;
    const char *after = std::getenv("WEFT_TEST_LFT_KILL_AFTER");
    const int limit = after ? std::atoi(after) : 1;
    if (++sentSets < limit)
        return result;
    char note[64];
    const int n = std::snprintf(note, sizeof note, "killed after %d LFT blocks\n", sentSets);
    const int out = open(arm, O_WRONLY | O_TRUNC);
    if (out >= 0) {
        if (write(out, note, std::size_t(n)) != n)
            std::perror("weft_osm_lft_kill");
        close(out);
    }
    kill(getpid(), SIGKILL);
    return result;
}
