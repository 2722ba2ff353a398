# Renders docs/screenshots/: every view, light and dark, English and Chinese, at 1280×800 and
# 1920×1080, plus presentation mode at 1920×1080, off screen from one example scenario; the app
# as it opens on the article's example (the README's first picture); and an index page. Run through the `screenshots` target (see README):
#   cmake --build --preset dev --target screenshots
# Inputs: APP (the vram-ledger binary), SCENARIO (a .vramledger.yaml), OUT (the folder).

foreach(var APP SCENARIO OUT)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "screenshots.cmake: -D${var}=... is required")
    endif()
endforeach()

set(views chart diagram timeline sweep)
set(languages en zh_CN)
set(themes light dark)
set(sizes 1280x800 1920x1080)

file(MAKE_DIRECTORY "${OUT}")
set(ENV{QT_QPA_PLATFORM} offscreen)
string(CONCAT index "# Screenshots\n\nEvery view of the example scenario `${SCENARIO_NAME}`, rendered off screen by\n"
       "`cmake --build --preset dev --target screenshots` (see the README). Regenerate them after\n"
       "any change to what a view shows, and look at each.\n")

function(render name)
    execute_process(COMMAND "${APP}" --screenshot "${OUT}/${name}.png" ${ARGN}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${name}: vram-ledger exited ${rc}: ${err}")
    endif()
endfunction()

foreach(size ${sizes})
    string(APPEND index "\n## ${size}\n")
    foreach(view ${views})
        string(APPEND index "\n### ${view}\n\n| | English | 简体中文 |\n| --- | --- | --- |\n")
        foreach(theme ${themes})
            string(APPEND index "| ${theme} |")
            foreach(lang ${languages})
                set(name "${view}-${lang}-${theme}-${size}")
                render(${name} --scenario "${SCENARIO}" --view ${view} --lang ${lang} --theme ${theme} --size ${size})
                string(APPEND index " ![${view}, ${lang}, ${theme}, ${size}](${name}.png) |")
            endforeach()
            string(APPEND index "\n")
        endforeach()
    endforeach()
endforeach()

string(APPEND index "\n## Presentation mode (F11), 1920x1080\n\n| | English | 简体中文 |\n| --- | --- | --- |\n")
foreach(theme ${themes})
    string(APPEND index "| ${theme} |")
    foreach(lang ${languages})
        set(name "presentation-${lang}-${theme}-1920x1080")
        render(${name} --scenario "${SCENARIO}" --presentation --lang ${lang} --theme ${theme} --size 1920x1080)
        string(APPEND index " ![presentation, ${lang}, ${theme}](${name}.png) |")
    endforeach()
    string(APPEND index "\n")
endforeach()

# The README's first picture: the app as it opens, on the article's own example.
render(article-example-en-light-1600x1000 --size 1600x1000 --lang en --theme light)
string(APPEND index "\n## As the app opens: the article's example, 1600x1000\n\n"
                    "![The article's 7B in mixed precision on an A100 80GB](article-example-en-light-1600x1000.png)\n")

file(WRITE "${OUT}/README.md" "${index}")
message(STATUS "screenshots written to ${OUT}")
