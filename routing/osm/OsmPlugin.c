/* libweftosm.so: Weft's routing engine inside OpenSM.
 *
 * OpenSM loads it as an event plugin (`event_plugin_name weftosm`, the intent's path in
 * `event_plugin_options`); create() registers the external routing engine "weft", which
 * `routing_engine weft` (or a chain such as `weft,updn`) selects. On every routing run the subnet
 * as OpenSM holds it (nodes, ports, cables, LIDs, the LFTs the switches hold) is copied into the
 * plain structures of WeftOsmEngine.h and routed by Weft; the tables come back in each switch's
 * new_lft, and OpenSM sends the blocks that changed. This file is the only one that sees
 * OpenSM's types. */
#include "WeftOsmEngine.h"

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_node.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_version.h>

#include <stdlib.h>
#include <string.h>

struct plugin
{
    osm_opensm_t *osm;
    struct weft_osm_engine *engine;
};

static void log_to_opensm(void *context, int level, const char *message)
{
    struct plugin *p = context;
    osm_log_level_t osm_level = level == WEFT_OSM_LOG_ERROR ? OSM_LOG_ERROR
        : level == WEFT_OSM_LOG_INFO                        ? OSM_LOG_INFO
                                                            : OSM_LOG_VERBOSE;
    osm_log(&p->osm->log, osm_level, "weft: %s\n", message);
}

static void free_subnet(struct weft_osm_subnet *s)
{
    uint32_t i;
    for (i = 0; i < s->node_count; i++)
        free(s->nodes[i].ports);
    free(s->nodes);
}

/* Copies OpenSM's view of the subnet. Returns -1 when memory runs out. */
static int copy_subnet(osm_subn_t *subn, struct weft_osm_subnet *out)
{
    cl_qmap_t *nodes = &subn->node_guid_tbl;
    osm_node_t *node;
    uint32_t n = 0;

    out->node_count = 0;
    out->nodes = calloc(cl_qmap_count(nodes) ? cl_qmap_count(nodes) : 1, sizeof(*out->nodes));
    if (!out->nodes)
        return -1;
    for (node = (osm_node_t *)cl_qmap_head(nodes); node != (osm_node_t *)cl_qmap_end(nodes);
         node = (osm_node_t *)cl_qmap_next(&node->map_item)) {
        struct weft_osm_node *w = &out->nodes[n];
        uint8_t physp_count = osm_node_get_num_physp(node);
        uint8_t i;

        w->guid = cl_ntoh64(osm_node_get_node_guid(node));
        w->system_guid = cl_ntoh64(node->node_info.sys_guid);
        w->type = osm_node_get_type(node);
        w->port_count = physp_count ? (uint8_t)(physp_count - 1) : 0;
        memcpy(w->description, node->node_desc.description, 64);
        w->description[64] = '\0';
        w->ports = calloc((size_t)w->port_count + 1, sizeof(*w->ports));
        if (!w->ports) {
            out->node_count = n;
            return -1;
        }
        out->node_count = ++n;
        for (i = 0; i < physp_count; i++) {
            osm_physp_t *physp = osm_node_get_physp_ptr(node, i);
            osm_physp_t *remote;
            struct weft_osm_port *port = &w->ports[i];

            if (!physp || !osm_physp_is_valid(physp))
                continue;
            port->present = 1;
            port->state = osm_physp_get_port_state(physp);
            port->guid = cl_ntoh64(osm_physp_get_port_guid(physp));
            port->lid = cl_ntoh16(osm_physp_get_base_lid(physp));
            port->lmc = osm_physp_get_lmc(physp);
            remote = osm_physp_get_remote(physp);
            if (i != 0 && remote && osm_physp_is_valid(remote) && remote->p_node) {
                port->remote_node = cl_ntoh64(osm_node_get_node_guid(remote->p_node));
                port->remote_port = osm_physp_get_port_num(remote);
            }
        }
        if (node->sw) {
            w->held_lft = node->sw->lft;
            w->new_lft = node->sw->new_lft;
            w->lft_size = node->sw->lft_size;
        }
    }
    return 0;
}

static int build_fwd_tables(void *context)
{
    struct plugin *p = context;
    struct weft_osm_subnet subnet;
    int status;

    if (copy_subnet(&p->osm->subn, &subnet) != 0) {
        free_subnet(&subnet);
        OSM_LOG(&p->osm->log, OSM_LOG_ERROR, "weft: out of memory copying the subnet\n");
        return -1;
    }
    status = weft_osm_route(p->engine, &subnet);
    free_subnet(&subnet);
    return status;
}

static uint8_t path_sl(void *context, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid)
{
    struct plugin *p = context;
    return weft_osm_path_sl(p->engine, hint, cl_ntoh16(slid), cl_ntoh16(dlid));
}

static int setup_engine(struct osm_routing_engine *re, struct osm_opensm *osm)
{
    (void)osm;
    /* The context is the plugin registered below; OpenSM computes the hop tables itself
     * (build_lid_matrices unset), which its multicast routing and SA need. */
    re->ucast_build_fwd_tables = build_fwd_tables;
    re->path_sl = path_sl;
    return 0;
}

static const external_routing_engine_module_t weft_module = {"weft", setup_engine, NULL};

static void *plugin_create(struct osm_opensm *osm)
{
    struct plugin *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->osm = osm;
    p->engine = weft_osm_create(osm->subn.opt.event_plugin_options, log_to_opensm, p);
    if (!p->engine) {
        free(p);
        return NULL;
    }
    if (osm_register_external_routing_engine(osm, &weft_module, p) != CL_SUCCESS) {
        OSM_LOG(&osm->log, OSM_LOG_ERROR, "weft: cannot register the routing engine \"weft\"\n");
        weft_osm_destroy(p->engine);
        free(p);
        return NULL;
    }
    return p;
}

static void plugin_delete(void *data)
{
    struct plugin *p = data;
    if (!p)
        return;
    weft_osm_destroy(p->engine);
    free(p);
}

__attribute__((visibility("default"))) osm_event_plugin_t osm_event_plugin = {
    OSM_VERSION,
    plugin_create,
    plugin_delete,
    NULL,
};
