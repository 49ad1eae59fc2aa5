/* SPDX-License-Identifier: MIT */
/*
 * bug.h - BUG_ON() for API misuse, as the kernel uses it.
 *
 * Debug builds abort with a message naming the function that caught the
 * misuse; release builds (NDEBUG) compile the checks out, so the condition
 * must never have side effects.
 */
#ifndef SGLIST_BUG_H
#define SGLIST_BUG_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * sim_bug - report a failed BUG_ON() and abort the process
 * @func: function that detected the misuse
 * @cond: text of the violated condition
 * @file: source file of the check
 * @line: source line of the check
 */
__attribute__((noreturn)) void sim_bug(const char *func, const char *cond,
				       const char *file, int line);

#define BUG() sim_bug(__func__, "BUG()", __FILE__, __LINE__)

#ifdef NDEBUG
#define BUG_ON(cond) ((void)sizeof(!!(cond)))
#else
#define BUG_ON(cond)                                            \
	(__builtin_expect(!!(cond), 0)                          \
		 ? sim_bug(__func__, #cond, __FILE__, __LINE__) \
		 : (void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* SGLIST_BUG_H */
