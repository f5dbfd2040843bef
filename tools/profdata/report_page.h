/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report's page (report-page.html), embedded at build time by
 * embed-page.py: the report writes the page with its data in place of the
 * marker line, bytes [report_page_data_at, report_page_data_end).
 */
#ifndef PROFDATA_TOOL_REPORT_PAGE_H
#define PROFDATA_TOOL_REPORT_PAGE_H

#include <stddef.h>

extern const unsigned char report_page[];
extern const size_t report_page_size;
extern const size_t report_page_data_at;
extern const size_t report_page_data_end;

#endif
