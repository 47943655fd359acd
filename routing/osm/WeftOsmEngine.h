/* The boundary between OpenSM and Weft's routing inside it: plain C, so that the plugin's OpenSM
 * side (OsmPlugin.c, built against OpenSM's headers) and Weft's C++ side (WeftOsmEngine.cpp)
 * share no type but these. Nothing thrown on the C++ side crosses it: every function catches,
 * logs and returns a failure, and OpenSM then falls back to the next engine of its chain. */
#ifndef WEFT_OSM_ENGINE_H
#define WEFT_OSM_ENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One port of a node as OpenSM holds it. Index = port number (0 is a switch's management port). */
struct weft_osm_port
{
    uint8_t present; /* the port exists in OpenSM's subnet */
    uint8_t state;   /* PortInfo:PortState, 1 down .. 4 active */
    uint8_t lmc;
    uint8_t remote_port;  /* the port number at the other end of the cable; 0 when none */
    uint16_t lid;         /* base LID, host order */
    uint64_t guid;        /* port GUID, host order */
    uint64_t remote_node; /* node GUID at the other end of the cable; 0 when none */
};

struct weft_osm_node
{
    uint64_t guid; /* node GUID, host order */
    uint64_t system_guid;
    uint8_t type;                /* 1 channel adapter, 2 switch, 3 router */
    uint8_t port_count;          /* physical ports 1..port_count */
    char description[65];        /* NodeDescription, NUL-terminated */
    struct weft_osm_port *ports; /* port_count + 1 entries */
    /* Switches only: the LFT OpenSM believes the switch holds, and the one to fill. */
    const uint8_t *held_lft;
    uint8_t *new_lft;
    uint32_t lft_size; /* entries of both, LIDs 0 .. lft_size - 1 */
};

struct weft_osm_subnet
{
    struct weft_osm_node *nodes;
    uint32_t node_count;
};

enum { WEFT_OSM_LOG_ERROR = 1,
       WEFT_OSM_LOG_INFO = 2,
       WEFT_OSM_LOG_VERBOSE = 3 };
typedef void (*weft_osm_log_fn)(void *context, int level, const char *message);

struct weft_osm_engine;

/* options: OpenSM's event_plugin_options, the path of the intent (a Weft project); may be empty. */
struct weft_osm_engine *weft_osm_create(const char *options, weft_osm_log_fn log, void *log_context);
/* Routes the subnet into every switch's new_lft. 0 on success, -1 on failure (nothing usable). */
int weft_osm_route(struct weft_osm_engine *engine, const struct weft_osm_subnet *subnet);
/* The SL of a path between two LIDs (host order): the one partition with its own lane that both
 * ends share, else the hint OpenSM computed. */
uint8_t weft_osm_path_sl(struct weft_osm_engine *engine, uint8_t hint, uint16_t slid, uint16_t dlid);
void weft_osm_destroy(struct weft_osm_engine *engine);

#ifdef __cplusplus
}
#endif

#endif
