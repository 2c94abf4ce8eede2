/*
 * settings.h — hwpmc's tunables that mean something on Linux.
 *
 *   callchaindepth  frames per call chain (capped by perf_event_max_stack)
 *   logbuffersize   KB per log buffer (1..16384, default 256)
 *   nbuffers_pcpu   log buffers per CPU (default 32; x logbuffersize <= 32 MB)
 *   nsamples        ring-buffer entries per CPU (1..65535, default 512)
 *   mincount        smallest sampling period (default 1000)
 *
 * Values come from, in order (later wins): the defaults, config files
 * (PMC_CONFIG alone if set; else /etc/pmc.conf, then
 * $XDG_CONFIG_HOME/pmc/pmc.conf or ~/.config/pmc/pmc.conf) with lines "name = value" (or hwpmc's "kern.hwpmc.name=value"),
 * then environment variables PMC_<NAME> (PMC_LOGBUFFERSIZE=512).  Out-of-range
 * values are reset with hwpmc(4)'s DIAGNOSTICS messages on stderr.
 */
#ifndef PMC_SETTINGS_H
#define PMC_SETTINGS_H

enum pmc_setting_id {
	PMC_SETTING_CALLCHAINDEPTH,
	PMC_SETTING_LOGBUFFERSIZE,
	PMC_SETTING_NBUFFERS_PCPU,
	PMC_SETTING_NSAMPLES,
	PMC_SETTING_MINCOUNT,
	PMC_SETTING_COUNT
};

void pmc__settings_load(void);
long pmc__setting(enum pmc_setting_id id);
/* A tunable by name ("kern.hwpmc." prefix optional): 0, or -ENOENT with a
 * reason.  pmc_sysctlbyname's kern.hwpmc.* answers. */
int pmc__setting_get(const char *name, long *value);
void pmc__settings_reset(void);

#endif
