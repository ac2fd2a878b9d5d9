"""``puzzlesat serve`` in a real browser (issue 73): Debian's headless Chromium, driven by Selenium through
chromium-driver, against the server as a user starts it. Where Chromium is not installed the tests skip;
under ``make test`` (PUZZLESAT_REQUIRE_TOOLS=1, which installs it as root) they fail instead, so CI never
skips them silently.

Each flow ends with a screenshot that the test holds to what it must show (the colours of the cells,
rings and rows it drew, counted in the picture); with ``PUZZLESAT_SCREENSHOTS=DIR`` (``make screenshots``)
they are kept there, as the documentation's pictures (docs/images/web-*.png, made by ``make
screenshots``)."""
from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import INSTANCES

EASY = INSTANCES / "aquarium" / "pa-6x6-easy-681742.txt"

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not (CHROMIUM and DRIVER) and not os.environ.get("PUZZLESAT_REQUIRE_TOOLS"):
    pytest.skip("Debian's chromium and chromium-driver are not installed (make solvers installs them)",
                allow_module_level=True)

#: Chromium's flags for a closed machine: no sandbox as root, no GPU, and none of its calls home
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,1600")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``puzzlesat serve`` on a free port; its address."""
    from .test_serve import serving

    with serving() as (_, port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    options.binary_location = str(CHROMIUM)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def waited(driver: Any, condition: Any, seconds: float = 30) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds).until(condition)


def opened(browser: Any, server: str, puzzle: str, text: str = "") -> None:
    """The page, loaded, with ``puzzle`` chosen and ``text`` pasted."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    waited(browser, lambda driver: len(Select(driver.find_element(By.ID, "puzzle")).options) > 1)
    Select(browser.find_element(By.ID, "puzzle")).select_by_value(puzzle)
    if text:
        browser.execute_script("document.getElementById('text').value = arguments[0]", text)


def screenshot(browser: Any, tmp_path: Path, name: str) -> Any:
    """The page's screenshot, a PIL image; with PUZZLESAT_SCREENSHOTS=DIR also kept there as web-NAME.png,
    cropped, in 64 colours (a third of the bytes, for the documentation)."""
    from PIL import Image

    shot = tmp_path / f"{name}.png"
    browser.save_screenshot(str(shot))
    image = Image.open(shot).convert("RGB")
    kept = os.environ.get("PUZZLESAT_SCREENSHOTS")
    if kept:  # cropped to what the page drew, white margins and the empty lower part left out
        from PIL import ImageChops

        left, top, right, bottom = ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox()
        framed = image.crop((max(0, left - 12), max(0, top - 12), min(image.width, right + 12),
                             min(image.height, bottom + 12)))
        Path(kept).mkdir(parents=True, exist_ok=True)
        framed.quantize(colors=64).save(Path(kept) / f"web-{name}.png", optimize=True)
    return image


def colours(image: Any) -> dict[tuple[int, int, int], int]:
    """How many pixels ``image`` has of each colour."""
    return {colour: count for count, colour in image.getcolors(1 << 24) or []}


def inked(image: Any, element: Any) -> int:
    """How many dark pixels (text, lines) the screenshot has where ``element`` is on the page: an element
    that is there but drew nothing has none."""
    box = element.rect
    part = image.crop((int(box["x"]), int(box["y"]), int(box["x"] + box["width"]), int(box["y"] + box["height"])))
    return sum(count for count, colour in part.getcolors(1 << 24) or [] if sum(colour) < 3 * 128)


#: the page's colours: water (a piece placed), a step's cells, a wrong mark's ring (the picture's), a wall
BLUE, ORANGE, RED, WALL = (70, 130, 220), (245, 150, 20), (215, 25, 25), (30, 30, 30)


def test_paste_a_url_see_it_solved_and_ask_for_a_hint(server, browser, tmp_path):
    """A puzz.link aquarium URL pasted and solved: the status, the answers and the grid; then the bundled
    marks checked: the wrong one and its reason. The screenshot holds the grid's blue water and the red
    ring of the wrong mark."""
    from selenium.webdriver.common.by import By

    import puzzlesat
    from puzzlesat.encoders import get_puzzle

    url = get_puzzle("aquarium").spell(puzzlesat.read("aquarium", str(EASY)), "url")
    opened(browser, server, "aquarium")
    browser.find_element(By.ID, "text").send_keys(url)
    browser.find_element(By.ID, "solve").click()
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith("SAT"))
    assert browser.find_element(By.ID, "status").text == "SAT, checked, unique"
    assert "unique: true" in browser.find_element(By.ID, "answers").text
    assert browser.find_elements(By.CSS_SELECTOR, "#picture svg")
    browser.find_element(By.ID, "marks").send_keys((INSTANCES / "aquarium" / "pa-6x6-easy-681742.marks").read_text())
    browser.find_element(By.ID, "hint").click()
    waited(browser, lambda driver: "wrong" in driver.find_element(By.ID, "hint-text").text)
    assert browser.find_element(By.ID, "hint-text").text == ("wrong: row 2, column 6 (water): region 4 fills level by "
                                                             "level + column 6 count (1)")
    shown = colours(screenshot(browser, tmp_path, "solved"))
    assert shown.get(BLUE, 0) > 1000 and shown.get(RED, 0) > 20  # the water cells, the wrong mark's ring


def test_a_bad_puzzle_is_one_line_on_the_page_shown_as_text(server, browser):
    """The command's one-line error, which quotes the input: markup in it stays text (no element made)."""
    from selenium.webdriver.common.by import By

    opened(browser, server, "aquarium", "<img src=x>_1;1")
    browser.find_element(By.ID, "solve").click()
    waited(browser, lambda driver: driver.find_element(By.ID, "status").get_attribute("class") == "error")
    status = browser.find_element(By.ID, "status")
    assert status.text.startswith("-:1:1: count '<img") and not browser.find_elements(By.CSS_SELECTOR, "#status img")


def test_step_through_an_explanation_forward_and_back(server, browser, tmp_path):
    """Explain (with DRAT proofs), then the steps one at a time: the first step's cells in orange on the
    grid inside the regions' walls, the step's facts said and that it is certified; back to nothing
    known; forward to the end, every cell known."""
    from selenium.webdriver.common.by import By

    opened(browser, server, "aquarium", EASY.read_text())
    browser.find_element(By.ID, "certify").click()
    browser.find_element(By.ID, "explain").click()
    waited(browser, lambda driver: "steps" in driver.find_element(By.ID, "status").text)
    assert browser.find_element(By.ID, "status").text == "10 steps, every one replayed; the solution checked"
    assert browser.find_element(By.ID, "step-number").text == "step 0 of 10"
    browser.find_element(By.ID, "next").click()
    assert browser.find_element(By.ID, "step-text").text.startswith("row 1 count (4); certified (")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#step-grid td.fresh")) == 6  # the first row's cells
    drawn = sum(len(browser.find_elements(By.CSS_SELECTOR, f"#step-grid td.{side}")) for side in ("wall-right", "wall-below"))
    assert drawn == len(puzzlesat_walls())
    shown = colours(screenshot(browser, tmp_path, "first-step"))
    assert shown.get(ORANGE, 0) > 1000 and shown.get(WALL, 0) > 500  # the step's cells, the regions' walls
    browser.find_element(By.ID, "previous").click()
    assert browser.find_element(By.ID, "step-text").text == "nothing known yet"
    assert not browser.find_elements(By.CSS_SELECTOR, "#step-grid td.yes, #step-grid td.no")
    for _ in range(12):  # past the end stays at the end
        browser.find_element(By.ID, "next").click()
    assert browser.find_element(By.ID, "step-number").text == "step 10 of 10"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#step-grid td.yes, #step-grid td.no")) == 36


def puzzlesat_walls() -> list:
    """The walls the command line's explanation gives for the 6x6 (its region borders)."""
    import puzzlesat

    return puzzlesat.explain("aquarium", puzzlesat.read("aquarium", str(EASY))).to_json()["walls"]


def test_mark_cells_by_clicking_and_ask_for_a_hint(server, browser, tmp_path):
    """Mark cells: the grid comes without the solution; a click marks water, the marks text follows, and
    the hint finds the wrong one (r1c1 is dry in the solution)."""
    from selenium.webdriver.common.by import By

    opened(browser, server, "aquarium", EASY.read_text())
    browser.find_element(By.ID, "mark").click()
    waited(browser, lambda driver: driver.find_elements(By.CSS_SELECTOR, "#marking td"))
    assert browser.find_element(By.ID, "status").text == "click the cells to mark them; the solution stays hidden"
    assert not browser.find_elements(By.CSS_SELECTOR, "#picture svg")
    browser.find_elements(By.CSS_SELECTOR, "#marking td")[0].click()
    assert browser.find_element(By.ID, "marks").get_attribute("value").splitlines()[0] == "# ? ? ? ? ?"
    browser.find_element(By.ID, "hint").click()
    waited(browser, lambda driver: "wrong" in driver.find_element(By.ID, "hint-text").text)
    assert browser.find_element(By.ID, "hint-text").text.startswith("wrong: row 1, column 1 (water): row 1 needs 4")
    assert colours(screenshot(browser, tmp_path, "marked")).get(RED, 0) > 20
    browser.find_element(By.ID, "export").click()  # the default format, dimacs
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith("exported"))


def test_mark_a_tilings_pieces_by_clicking(server, browser, tmp_path):
    """A jig: Mark cells, a piece typed in the Piece box, a click puts it in the corner: piece 5 has one
    flat side, so no layout has it there, and the hint says so; a second click takes it away."""
    from selenium.webdriver.common.by import By

    opened(browser, server, "jig", (INSTANCES / "jig" / "matt5x5.jig").read_text())
    browser.find_element(By.ID, "mark").click()
    waited(browser, lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#marking td")) == 25)
    assert browser.find_element(By.ID, "pen").is_displayed()
    browser.find_element(By.ID, "pen").send_keys("5/0")
    corner = browser.find_elements(By.CSS_SELECTOR, "#marking td")[0]
    corner.click()
    assert corner.text == "5/0"
    assert browser.find_element(By.ID, "marks").get_attribute("value").splitlines()[0] == "5/0 ? ? ? ?"
    browser.find_element(By.ID, "hint").click()
    waited(browser, lambda driver: "wrong" in driver.find_element(By.ID, "hint-text").text)
    assert browser.find_element(By.ID, "hint-text").text.startswith(
        "wrong: row 1, column 1 (piece 5 in orientation 0): r1c1 and r1c2 fit")
    shown = colours(screenshot(browser, tmp_path, "tiling-marked"))
    assert shown.get(RED, 0) > 20 and shown.get(BLUE, 0) > 100  # the ring, and the marked cell
    corner.click()
    assert corner.text == "" and browser.find_element(By.ID, "marks").get_attribute("value").startswith("? ? ? ? ?")


def test_stop_a_long_count_and_see_what_was_kept(server, browser, tmp_path):
    """A count that would take hours fills in its progress; Stop keeps the solutions found, each checked,
    as a lower bound, and the Stop button goes."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from .test_serve import long_formula

    opened(browser, server, "cnf", long_formula())
    Select(browser.find_element(By.ID, "backend")).select_by_value("pysat:cadical195")
    browser.find_element(By.ID, "count").click()
    waited(browser, lambda driver: "solutions so far" in driver.find_element(By.ID, "progress").text)
    assert browser.find_element(By.ID, "stop").is_displayed()
    assert browser.find_element(By.ID, "progress").text.startswith("count: solve phase, ")
    running = screenshot(browser, tmp_path, "counting")
    assert inked(running, browser.find_element(By.ID, "progress")) > 100
    assert inked(running, browser.find_element(By.ID, "stop")) > 20
    browser.find_element(By.ID, "stop").click()
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith("stopped"))
    assert browser.find_element(By.ID, "status").text == ("stopped (Stop pressed): kept what was found, each "
                                                          "solution checked; counted by enumeration")
    kept = browser.find_element(By.ID, "answers").text
    assert kept.startswith("solutions: at least ") and int(kept.split()[-1]) > 0
    assert not browser.find_element(By.ID, "stop").is_displayed() and not browser.find_element(By.ID, "progress").text
    assert inked(screenshot(browser, tmp_path, "count-stopped"), browser.find_element(By.ID, "answers")) > 100


def test_a_crosscheck_fills_in_row_by_row(server, browser, tmp_path):
    """Two backends ticked: the rows of the reference and of each backend's encodings, every one
    agreeing, and the verdict; the screenshot holds the rows' text."""
    from selenium.webdriver.common.by import By

    opened(browser, server, "aquarium", EASY.read_text())
    for box in browser.find_elements(By.CSS_SELECTOR, "#backends-to-check input"):
        if box.get_attribute("value") in ("pysat:cadical195", "z3"):
            box.click()
    browser.find_element(By.ID, "crosscheck").click()
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith(("agree", "DISAGREE")))
    assert browser.find_element(By.ID, "status").text == "agree: 3 independent methods"
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in browser.find_elements(By.CSS_SELECTOR, "#rows tbody tr")]
    assert [row[0] for row in rows] == ["reference", "pysat:cadical195 [cnf]", "z3 [cnf]", "z3 [smt]"]
    assert all(row[1] == "SAT" and row[3] == "unique=true" and row[4] == "yes" for row in rows)
    assert not browser.find_elements(By.CSS_SELECTOR, "#rows tr.disagrees")
    assert inked(screenshot(browser, tmp_path, "crosscheck"), browser.find_element(By.ID, "rows")) > 500


def test_open_a_file(server, browser, tmp_path):
    """The file chooser reads the file into the text box (here a DIMACS formula), which then solves."""
    from selenium.webdriver.common.by import By

    formula = tmp_path / "small.cnf"
    formula.write_text("p cnf 3 2\n1 2 0\n-1 3 0\n")
    opened(browser, server, "cnf")
    browser.find_element(By.ID, "upload").send_keys(str(formula))
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith("opened"))
    assert browser.find_element(By.ID, "status").text == "opened small.cnf (23 bytes)"
    assert browser.find_element(By.ID, "text").get_attribute("value") == formula.read_text()
    browser.find_element(By.ID, "solve").click()
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith("SAT"))
    assert "satisfiable: true" in browser.find_element(By.ID, "answers").text


def test_forced_cells_of_a_puzzle_with_two_solutions(server, browser, tmp_path):
    """A 2x2 aquarium whose two diagonals both solve it: "unique: false", and no cell forced; the
    picture greys the cells that differ."""
    from selenium.webdriver.common.by import By

    opened(browser, server, "aquarium", "1_1_1_1;1,2,3,4\n")
    browser.find_element(By.ID, "forced").click()
    browser.find_element(By.ID, "solve").click()
    waited(browser, lambda driver: driver.find_element(By.ID, "status").text.startswith("SAT"))
    assert browser.find_element(By.ID, "status").text == "SAT, checked, not unique"
    said = browser.find_element(By.ID, "answers").text
    assert "unique: false" in said and "forced in every solution: 0 of 4 cells ('?': differs)\n??\n??" in said
    assert inked(screenshot(browser, tmp_path, "forced"), browser.find_element(By.ID, "picture")) > 100
